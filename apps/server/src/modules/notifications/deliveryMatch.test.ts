import { describe, expect, it } from 'vitest';
import { wantsEvent } from './deliveryMatch.js';

const group = '0190a0b0-0000-7000-8000-000000000001';
const otherGroup = '0190a0b0-0000-7000-8000-000000000002';
const number = '0190a0b0-0000-7000-8000-0000000000aa';

const message = (over: Record<string, unknown> = {}) => ({ message: { id: 'm', status: 'delivered', outgoing: true, phoneNumberId: number, ...over } });

describe('which events a notification wants', () => {
  it('wants only its event types', () => {
    const n = { eventTypes: ['message-received'], filters: {} };
    expect(wantsEvent(n, { type: 'message-received', groupId: null, data: message({ outgoing: false }) })).toBe(true);
    expect(wantsEvent(n, { type: 'message-sent', groupId: null, data: message() })).toBe(false);
  });

  it("narrows message and conversation events by group and number; contact events have neither and pass", () => {
    const n = { eventTypes: ['message-sent', 'conversation-closed', 'contact-created'], filters: { groups: [group], phoneNumbers: [number] } };
    expect(wantsEvent(n, { type: 'message-sent', groupId: group, data: message() })).toBe(true);
    expect(wantsEvent(n, { type: 'message-sent', groupId: otherGroup, data: message() })).toBe(false);
    expect(wantsEvent(n, { type: 'message-sent', groupId: null, data: message() })).toBe(false);
    expect(wantsEvent(n, { type: 'message-sent', groupId: group, data: message({ phoneNumberId: 'another' }) })).toBe(false);
    expect(wantsEvent(n, { type: 'conversation-closed', groupId: group, data: { conversation: { id: 'c', phoneNumber: { id: number, number: '+1' } } } })).toBe(true);
    expect(wantsEvent(n, { type: 'conversation-closed', groupId: group, data: { conversation: { id: 'c' } } })).toBe(false);
    expect(wantsEvent(n, { type: 'contact-created', groupId: null, data: { contact: { id: 'k' } } })).toBe(true);
  });

  it('narrows message-status by status and message events by direction', () => {
    const failedOnly = { eventTypes: ['message-status'], filters: { statuses: ['failed', 'undelivered'] } };
    expect(wantsEvent(failedOnly, { type: 'message-status', groupId: null, data: message({ status: 'failed' }) })).toBe(true);
    expect(wantsEvent(failedOnly, { type: 'message-status', groupId: null, data: message({ status: 'delivered' }) })).toBe(false);
    const incoming = { eventTypes: ['message-received', 'message-sent', 'contact-updated'], filters: { direction: 'incoming' as const } };
    expect(wantsEvent(incoming, { type: 'message-received', groupId: null, data: message({ outgoing: false }) })).toBe(true);
    expect(wantsEvent(incoming, { type: 'message-sent', groupId: null, data: message({ outgoing: true }) })).toBe(false);
    expect(wantsEvent(incoming, { type: 'contact-updated', groupId: null, data: { contact: { id: 'k' } } })).toBe(true);
  });
});
