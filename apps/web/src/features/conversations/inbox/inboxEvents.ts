import { inboxEventTypes, type Conversation, type InboxEventType, type Message, type OutboxEventPayload } from '@parley/shared';

export type MessageEventType = Extract<InboxEventType, 'messageReceived' | 'messageSent' | 'messageStatus' | 'messageRead'>;
export type ConversationEventType = Extract<InboxEventType, 'conversationClosed' | 'conversationRead' | 'conversationUpdated'>;

/** A websocket event the inbox applies to what it has cached. */
export type InboxEvent =
  | { type: MessageEventType; message: Message }
  | { type: 'conversationStarted'; conversation: { id: string; contact: { id: string } } }
  | { type: ConversationEventType; conversation: Conversation };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const hasId = (value: unknown): value is Record<string, unknown> & { id: string } => isRecord(value) && typeof value.id === 'string';

const isInboxEventType = (type: string): type is InboxEventType => (inboxEventTypes as readonly string[]).includes(type);

// Light checks rather than the zod schemas: a campaign sends thousands of events a minute to every open inbox.
const looksLikeMessage = (value: unknown): value is Message =>
  hasId(value) && hasId(value.conversation) && hasId(value.contact) && typeof value.status === 'string' && isRecord(value.created);

const looksLikeConversation = (value: unknown): value is Conversation =>
  hasId(value) && hasId(value.contact) && Array.isArray(value.unread) && isRecord(value.updated);

/** The inbox event of a websocket payload for the account, or null when it is none (another type, another account). */
export function parseInboxEvent(payload: OutboxEventPayload, accountId: string): InboxEvent | null {
  if (payload.accountId !== null && payload.accountId !== accountId) return null;
  if (!isInboxEventType(payload.type) || !isRecord(payload.data)) return null;
  const { message, conversation } = payload.data;
  switch (payload.type) {
    case 'messageReceived':
    case 'messageSent':
    case 'messageStatus':
    case 'messageRead':
      return looksLikeMessage(message) ? { type: payload.type, message } : null;
    case 'conversationStarted':
      return hasId(conversation) && hasId(conversation.contact)
        ? { type: 'conversationStarted', conversation: { id: conversation.id, contact: { id: conversation.contact.id } } }
        : null;
    case 'conversationClosed':
    case 'conversationRead':
    case 'conversationUpdated':
      return looksLikeConversation(conversation) ? { type: payload.type, conversation } : null;
  }
}

/** The conversation an event is about. */
export const conversationIdOf = (event: InboxEvent): string =>
  'message' in event ? event.message.conversation.id : event.conversation.id;

/** The contact an event is about. */
export const contactIdOf = (event: InboxEvent): string =>
  'message' in event ? event.message.contact.id : event.conversation.contact.id;
