import { describe, expect, it } from 'vitest';
import type { OutboxEventPayload } from '@parley/shared';
import { callConversationOf } from './callEvents';

const payload = (overrides: Partial<OutboxEventPayload>): OutboxEventPayload => ({
  id: '1',
  type: 'callRecorded',
  accountId: 'acc',
  userId: null,
  groupId: null,
  data: { call: { id: 'call' }, conversation: { id: 'conv' } },
  createdAt: '2026-12-03T09:00:00.000Z',
  ...overrides,
});

describe('call events', () => {
  it('name the conversation of a call of the account', () => {
    expect(callConversationOf(payload({}), 'acc')).toBe('conv');
  });

  it('leave out other accounts, other types and malformed data', () => {
    expect(callConversationOf(payload({}), 'other')).toBeNull();
    expect(callConversationOf(payload({ type: 'messageSent' }), 'acc')).toBeNull();
    expect(callConversationOf(payload({ data: { conversation: 'conv' } }), 'acc')).toBeNull();
  });
});
