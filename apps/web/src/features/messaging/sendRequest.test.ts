import type { Message, SendMessageResult } from '@parley/shared';
import { describe, expect, it } from 'vitest';
import { canSend, sendRequestOf, sentNotice } from './sendRequest';

// A message quiet hours do not hold has no sendAfter (absent values are left out).
const message = (sendAfter: string | null): Message =>
  ({ id: crypto.randomUUID(), ...(sendAfter === null ? {} : { sendAfter }) }) as unknown as Message;

describe('sendRequestOf', () => {
  it('sends each contact once and the chosen number as phoneNumberFilter.group', () => {
    expect(sendRequestOf({ contactIds: ['a', 'b', 'a'], template: 'Hi', phoneNumberId: '' })).toEqual({ contacts: ['a', 'b'], template: 'Hi' });
    expect(sendRequestOf({ contactIds: ['a'], template: 'Hi', phoneNumberId: 'n1' })).toEqual({
      contacts: ['a'],
      template: 'Hi',
      phoneNumberFilter: { group: 'n1' },
    });
  });
});

describe('sendRequestOf with media', () => {
  it('sends the attachments, and a media-only message with an empty template', () => {
    const media = [{ url: 'https://x.test/v1/accounts/a/media/f', type: 'image/png', filename: 'cat.png' }];
    expect(sendRequestOf({ contactIds: ['a'], template: '', phoneNumberId: '', media })).toEqual({ contacts: ['a'], template: '', media });
    expect(sendRequestOf({ contactIds: ['a'], template: 'Hi', phoneNumberId: '', media: [] })).toEqual({ contacts: ['a'], template: 'Hi' });
  });
});

describe('canSend', () => {
  it('lets media stand in for the text', () => {
    const media = [{ url: 'https://x.test/v1/accounts/a/media/f', type: 'image/png', filename: 'cat.png' }];
    expect(canSend({ contactIds: ['a'], template: ' ', phoneNumberId: '', media }, true)).toBe(true);
    expect(canSend({ contactIds: [], template: '', phoneNumberId: '', media }, true)).toBe(false);
  });

  it('needs text, a recipient and a verified e-mail', () => {
    expect(canSend({ contactIds: ['a'], template: 'Hi', phoneNumberId: '' }, true)).toBe(true);
    expect(canSend({ contactIds: ['a'], template: '  ', phoneNumberId: '' }, true)).toBe(false);
    expect(canSend({ contactIds: [], template: 'Hi', phoneNumberId: '' }, true)).toBe(false);
    expect(canSend({ contactIds: ['a'], template: 'Hi', phoneNumberId: '' }, false)).toBe(false);
  });
});

describe('sentNotice', () => {
  const result = (messages: Message[], invalid: SendMessageResult['data']['invalid'] = []): SendMessageResult => ({
    data: { messages, invalid, requested: messages.length + invalid.length, valid: messages.length, estimatedPrice: 0.01 * messages.length },
  });
  const leftOut = (id: string, reason: string): SendMessageResult['data']['invalid'][number] => ({
    id,
    firstName: '',
    lastName: '',
    mobile: { number: '+14155550100', country: 'US' },
    error: { code: 'conflict', description: reason },
    contact: { id },
    conversation: null,
    reason,
  });
  it('says how many went, how many wait for quiet hours and who was left out', () => {
    expect(sentNotice(result([message(null)]))).toBe('Message sent');
    expect(sentNotice(result([message('2030-01-01T13:00:00.000Z')]))).toBe("Message sent; it waits for the recipient's quiet hours to end");
    expect(sentNotice(result([message(null), message('2030-01-01T13:00:00.000Z')]))).toBe(
      "2 messages sent; 1 wait for the recipient's quiet hours to end",
    );
    const invalid = [leftOut('x', 'This contact is blocked.'), leftOut('y', 'This contact has opted out of messages.')];
    expect(sentNotice(result([message(null), message(null)], invalid))).toBe('2 messages sent; 2 left out (This contact is blocked. and 1 more)');
  });
});
