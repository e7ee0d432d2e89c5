import type { MessageMedia } from '@parley/shared';
import { describe, expect, it } from 'vitest';
import { mediaItemAt } from './mediaItem';

const item = (n: number): MessageMedia => ({ url: `https://p.test/v1/accounts/a/media/${String(n)}`, type: 'image/png', filename: `f${String(n)}.png` });

describe('mediaItemAt', () => {
  it('finds the idx-th item and nothing for a bad index', () => {
    const media = [item(1), item(2)];
    expect(mediaItemAt(media, '1')).toEqual(item(2));
    expect(mediaItemAt(media, '2')).toBeNull();
    expect(mediaItemAt(media, '-1')).toBeNull();
    expect(mediaItemAt(media, 'x')).toBeNull();
  });
});
