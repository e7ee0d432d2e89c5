import type { Conversation, Message, OutboxEventPayload } from '@parley/shared';

/*
 * Conversations and messages as the API presents them, for the inbox's unit tests. Ids are UUID-shaped so the
 * shapes match the shared schemas.
 */

export const uuid = (n: number): string => `0190a1b2-c3d4-7e5f-8a9b-${n.toString(16).padStart(12, '0')}`;

export const ACCOUNT = uuid(0xacc);

export function message(overrides: Partial<Message> & { id: string; conversationId: string }): Message {
  const { conversationId, ...rest } = overrides;
  return {
    conversation: { id: conversationId },
    contact: { id: uuid(0xc0) },
    phoneNumber: '+15550000000',
    phoneNumberId: uuid(0xf0),
    message: 'Hello',
    direction: 'inbound',
    outgoing: false,
    status: 'received',
    read: false,
    encoding: 'GSM-7',
    segments: 1,
    price: 0,
    media: [],
    created: { at: '2025-01-02T10:00:00.000Z' },
    updated: { at: '2025-01-02T10:00:00.000Z' },
    ...rest,
  };
}

export function conversation(overrides: Partial<Conversation> & { id: string }): Conversation {
  return {
    contact: { id: uuid(0xc0), firstName: 'Ada', lastName: 'Lovelace', mobile: { number: '+15551230000', country: 'US' } },
    phoneNumber: { id: uuid(0xf0), number: '+15550000000' },
    lastMessage: {
      id: uuid(0xe0),
      message: 'Earlier',
      status: 'delivered',
      outgoing: true,
      media: [],
      created: { at: '2025-01-01T10:00:00.000Z' },
    },
    created: { at: '2025-01-01T09:00:00.000Z' },
    updated: { at: '2025-01-01T10:00:00.000Z' },
    closed: false,
    unread: [],
    ...overrides,
  };
}

export const payload = (type: string, data: unknown, accountId: string | null = ACCOUNT): OutboxEventPayload => ({
  id: '1',
  type,
  accountId,
  userId: null,
  groupId: null,
  data,
  createdAt: '2025-01-02T10:00:00.000Z',
});
