import {
  MEDIA_UPLOAD_MAX_BYTES,
  MEDIA_UPLOAD_TOO_LARGE_MESSAGE,
  MEDIA_UPLOAD_TYPE_MESSAGE,
  mediaChipName,
  mediaUploadProblem,
  type MessageMedia,
} from '@parley/shared';
import { describe, expect, it } from 'vitest';
import { accountMediaPath, attachmentOf, canAttachMore, singleFile, withAttachment, withoutAttachment } from './mediaUrls';

const item = (n: number): MessageMedia => ({ url: `https://p.test/v1/accounts/a/media/${String(n)}`, type: 'image/png', filename: `f${String(n)}.png` });

describe('mediaChipName', () => {
  it('cuts a name at 20 characters and marks the cut', () => {
    expect(mediaChipName('12345678901234567890')).toBe('12345678901234567890');
    expect(mediaChipName('123456789012345678901.png')).toBe('12345678901234567890…');
    expect(mediaChipName('cat.png')).toBe('cat.png');
  });
});

describe('mediaUploadProblem', () => {
  it('takes a picture up to 1024 kB', () => {
    expect(mediaUploadProblem({ type: 'image/png', size: MEDIA_UPLOAD_MAX_BYTES })).toBeNull();
    expect(mediaUploadProblem({ type: 'IMAGE/JPEG', size: 10 })).toBeNull();
  });
  it('refuses a larger file and other types with the messages naming the limit and the types', () => {
    expect(mediaUploadProblem({ type: 'image/png', size: MEDIA_UPLOAD_MAX_BYTES + 1 })).toBe(MEDIA_UPLOAD_TOO_LARGE_MESSAGE);
    expect(MEDIA_UPLOAD_TOO_LARGE_MESSAGE).toContain('1024 kB');
    expect(mediaUploadProblem({ type: 'text/plain', size: 10 })).toBe(MEDIA_UPLOAD_TYPE_MESSAGE);
    expect(mediaUploadProblem({ type: '', size: 10 })).toBe(MEDIA_UPLOAD_TYPE_MESSAGE);
    expect(mediaUploadProblem({ type: 'image/svg+xml', size: 10 })).toBe(MEDIA_UPLOAD_TYPE_MESSAGE);
  });
});

describe('attachments', () => {
  it('holds at most 5', () => {
    const four = [1, 2, 3, 4].map(item);
    expect(canAttachMore(four)).toBe(true);
    const five = withAttachment(four, item(5));
    expect(five).toHaveLength(5);
    expect(canAttachMore(five)).toBe(false);
    expect(withAttachment(five, item(6))).toEqual(five);
  });
  it('removes the one asked for', () => {
    expect(withoutAttachment([item(1), item(2), item(3)], 1)).toEqual([item(1), item(3)]);
  });
  it('keeps the name the file had on disk', () => {
    const shared = { id: 'x', link: 'https://p.test/v1/accounts/a/media/x', type: 'image/jpeg', filename: 'x.jpg', width: 1, height: 1, size: 1 };
    expect(attachmentOf(shared, 'Holiday.png')).toEqual({ url: shared.link, type: 'image/jpeg', filename: 'Holiday.png' });
    expect(attachmentOf(shared, ' ')).toEqual({ url: shared.link, type: 'image/jpeg', filename: 'x.jpg' });
  });
  it('takes exactly one file', () => {
    expect(singleFile(['a'])).toBe('a');
    expect(singleFile(['a', 'b'])).toBeNull();
    expect(singleFile([])).toBeNull();
    expect(singleFile(null)).toBeNull();
  });
});

describe('accountMediaPath', () => {
  const origins = ['https://parley.example.com', 'http://localhost:5173'];
  it('fetches the account media of this deployment by path', () => {
    expect(accountMediaPath('https://parley.example.com/v1/accounts/a1/media/f1', origins)).toBe('/v1/accounts/a1/media/f1');
  });
  it('leaves other addresses alone', () => {
    expect(accountMediaPath('https://api.twilio.com/2010-04-01/Accounts/AC/Messages/MM/Media/ME', origins)).toBeNull();
    expect(accountMediaPath('https://evil.example.com/v1/accounts/a1/media/f1', origins)).toBeNull();
    expect(accountMediaPath('https://parley.example.com/v1/simulator/media/sunrise.png', origins)).toBeNull();
    expect(accountMediaPath('not a url', origins)).toBeNull();
  });
});
