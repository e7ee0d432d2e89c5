import { moneyAsNumber, type Message } from '@parley/shared';
import type { MessageRow } from '../../platform/db/schema/index.js';
import { withoutNulls } from '../../platform/http/withoutNulls.js';

/**
 * The message entity from its row, in the hosted product's shape (docs/api.md): `phoneNumber` is the account's
 * number the message went through, as text, and its record's id `phoneNumberId`; `price` a number; absent values
 * are left out.
 */
export function presentMessage(row: MessageRow): Message {
  const outgoing = row.direction === 'outbound';
  const failed = row.status === 'failed' || row.status === 'undelivered';
  return withoutNulls({
    id: row.id,
    conversation: { id: row.conversationId },
    contact: { id: row.contactId },
    phoneNumber: outgoing ? row.fromNumber : row.toNumber,
    phoneNumberId: row.phoneNumberId,
    templateId: row.templateId,
    message: row.body,
    direction: row.direction,
    outgoing,
    status: row.status,
    // Unread is for people to look at: incoming messages, and outgoing ones that errored (docs/inbox.md).
    read: row.readAt !== null || (outgoing && !failed),
    encoding: row.encoding,
    segments: row.segments,
    price: moneyAsNumber(row.price),
    media: row.media,
    error:
      failed || row.errorDescription !== null
        ? { code: row.errorCode, description: row.errorDescription ?? 'The carrier did not deliver the message.' }
        : null,
    eventType: row.eventType,
    jobId: row.jobId,
    sendAfter: row.status === 'queued' && row.sendAfter.getTime() > row.createdAt.getTime() ? row.sendAfter.toISOString() : null,
    created: { at: row.createdAt.toISOString() },
    sent: row.sentAt === null ? null : { at: row.sentAt.toISOString() },
    updated: { at: (row.statusAt ?? row.createdAt).toISOString() },
  });
}
