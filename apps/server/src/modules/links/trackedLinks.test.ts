import { describe, expect, it } from 'vitest';
import { codesIn } from './trackedLinks.js';

describe('short URLs in a message', () => {
  it('finds the code on a short host, on the main host under /r, and under a PUBLIC_URL with a path', () => {
    const text =
      'Book at https://go.example.test/Ab3dEf9 or http://localhost:3000/r/Zz0Yy1X, ' +
      'see https://example.com/sms/r/Qq7Ww8E and https://example.com/a/b/r/Kk1Ll2M.';
    expect(codesIn(text)).toEqual(['Ab3dEf9', 'Zz0Yy1X', 'Qq7Ww8E', 'Kk1Ll2M']);
  });

  it('leaves alone paths that are not a short link: a longer segment, a page under another folder', () => {
    expect(codesIn('https://example.com/Ab3dEf9x https://example.com/blog/Ab3dEf9 https://example.com/r/Ab3dEf')).toEqual([]);
  });
});
