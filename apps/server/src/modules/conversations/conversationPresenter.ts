import type { Conversation, Pagination } from '@parley/shared';
import type { MessageRow } from '../../platform/db/schema/index.js';
import type { ConversationRecord } from './conversationQueries.js';
import { presentMessage } from '../messaging/index.js';

const failed = (status: MessageRow['status']): boolean => status === 'failed' || status === 'undelivered';

function presentLastMessage(last: NonNullable<ConversationRecord['lastMessage']>): NonNullable<Conversation['lastMessage']> {
  return {
    id: last.id,
    message: last.body,
    template: last.templateId === null ? null : { id: last.templateId },
    status: last.status,
    error:
      failed(last.status) || last.errorDescription !== null
        ? { code: last.errorCode, description: last.errorDescription ?? 'The carrier did not deliver the message.' }
        : null,
    outgoing: last.direction === 'outbound',
    media: last.media.length,
    created: last.createdAt.toISOString(),
  };
}

/**
 * The conversation entity (docs/inbox.md). `unread` is the ids of its unread messages; `messages` the page of its
 * messages GET conversations/{id} carries.
 */
export function presentConversation(
  record: ConversationRecord,
  unread: readonly string[],
  messages?: { rows: readonly MessageRow[]; pagination: Pagination },
): Conversation {
  const { contact } = record;
  return {
    id: record.id,
    contact: {
      id: contact.id,
      firstName: contact.firstName,
      lastName: contact.lastName,
      mobile: contact.mobileNumber,
      blocked: contact.blockedAt?.toISOString() ?? null,
      optedOut: contact.optedOutAt?.toISOString() ?? null,
    },
    phoneNumber: record.phoneNumber,
    group: record.group,
    lastMessage: record.lastMessage === null ? null : presentLastMessage(record.lastMessage),
    created: { at: record.createdAt.toISOString() },
    updated: { at: record.updatedAt.toISOString() },
    closed: record.closedAt?.toISOString() ?? null,
    unread: [...unread],
    ...(messages === undefined ? {} : { messages: { data: messages.rows.map(presentMessage), pagination: messages.pagination } }),
  };
}
