import { describe, expect, it } from 'vitest';
import { notificationFor } from './payload.js';

const conversationId = '0190f4c2-7b1e-7c3a-9d2e-6f1a2b3c4d5e';

describe('the notification of an incoming message', () => {
  it("names the contact, or shows the number as the account's country writes it when the contact has no name", () => {
    const message = { conversationId, text: 'Is the shop open?', mediaCount: 0 };
    expect(notificationFor({ firstName: 'Ada', lastName: 'Lovelace', mobileNumber: '+14155550100' }, message, 'US')).toEqual({
      title: 'Ada Lovelace',
      body: 'Is the shop open?',
      url: `/conversations/${conversationId}`,
      tag: conversationId,
    });
    expect(notificationFor({ firstName: ' ', lastName: 'Byron', mobileNumber: '+14155550100' }, message, 'US').title).toBe('Byron');
    expect(notificationFor({ firstName: '', lastName: '', mobileNumber: '+14155550100' }, message, 'US').title).toBe('(415) 555-0100');
    expect(notificationFor({ firstName: '', lastName: '', mobileNumber: '+14155550100' }, message, 'GB').title).toBe('+1 415 555 0100');
  });

  it("cuts a long text and says 'Picture' for media only", () => {
    const contact = { firstName: 'Ada', lastName: '', mobileNumber: '+14155550100' };
    expect(notificationFor(contact, { conversationId, text: 'y'.repeat(300), mediaCount: 0 }, 'US').body).toBe(`${'y'.repeat(120)}…`);
    expect(notificationFor(contact, { conversationId, text: '', mediaCount: 1 }, 'US').body).toBe('Picture');
  });
});
