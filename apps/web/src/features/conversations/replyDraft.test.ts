import { MESSAGE_MEDIA_MAX } from '@parley/shared';
import { describe, expect, it } from 'vitest';
import { canReply } from './replyDraft';

const picture = { url: 'https://parley.test/v1/accounts/a/media/1', type: 'image/png', filename: 'cat.png' };

describe('canReply', () => {
  it('sends text, media alone, or both', () => {
    expect(canReply({ template: 'Hi', media: [] }, true)).toBe(true);
    expect(canReply({ template: '', media: [picture] }, true)).toBe(true);
    expect(canReply({ template: 'Look', media: [picture] }, true)).toBe(true);
  });

  it('waits for something to send', () => {
    expect(canReply({ template: '  \n', media: [] }, true)).toBe(false);
  });

  it('refuses more than 5 attachments and an unverified sender', () => {
    expect(canReply({ template: '', media: Array.from({ length: MESSAGE_MEDIA_MAX + 1 }, () => picture) }, true)).toBe(false);
    expect(canReply({ template: 'Hi', media: [] }, false)).toBe(false);
  });
});
