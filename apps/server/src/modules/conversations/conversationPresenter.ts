import type { Conversation, Pagination } from '@parley/shared';
import type { MessageRow } from '../../platform/db/schema/index.js';
import { withoutNulls } from '../../platform/http/withoutNulls.js';
import type { ConversationRecord } from './conversationQueries.js';
import { presentMessage } from '../messaging/index.js';

const failed = (status: MessageRow['status']): boolean => status === 'failed' || status === 'undelivered';

/** The last message with the fields the list shows, as presentMessage writes them (the contract's lastMessage is a Message). */
function presentLastMessage(last: NonNullable<ConversationRecord['lastMessage']>) {
  return {
    id: last.id,
    message: last.body,
    templateId: last.templateId,
    status: last.status,
    error:
      failed(last.status) || last.errorDescription !== null
        ? { code: last.errorCode, description: last.errorDescription ?? 'The carrier did not deliver the message.' }
        : null,
    outgoing: last.direction === 'outbound',
    media: last.media,
    created: { at: last.createdAt.toISOString() },
  };
}

/**
 * The conversation entity (docs/inbox.md) in the hosted product's shape (docs/api.md): `closed` a boolean and
 * `closedAt` since when, absent values left out. `unread` is the ids of its unread messages; `messages` the page of
 * its messages GET conversations/{id} carries.
 */
export function presentConversation(
  record: ConversationRecord,
  unread: readonly string[],
  messages?: { rows: readonly MessageRow[]; pagination: Pagination },
): Conversation {
  const { contact } = record;
  return withoutNulls({
    id: record.id,
    contact: {
      id: contact.id,
      firstName: contact.firstName,
      lastName: contact.lastName,
      mobile: { number: contact.mobileNumber, country: contact.mobileCountry },
      blocked: contact.blockedAt?.toISOString() ?? null,
      optedOut: contact.optedOutAt?.toISOString() ?? null,
    },
    phoneNumber: record.phoneNumber,
    group: record.group,
    lastMessage: record.lastMessage === null ? null : presentLastMessage(record.lastMessage),
    created: { at: record.createdAt.toISOString() },
    updated: { at: record.updatedAt.toISOString() },
    closed: record.closedAt !== null,
    closedAt: record.closedAt?.toISOString() ?? null,
    unread: [...unread],
    messages: messages === undefined ? null : { data: messages.rows.map(presentMessage), pagination: messages.pagination },
  });
}
