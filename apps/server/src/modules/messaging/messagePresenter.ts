import { formatMoney, type Message } from '@parley/shared';
import type { MessageRow } from '../../platform/db/schema/index.js';

/** The message entity from its row; `phoneNumber` is the account's number the message went through. */
export function presentMessage(row: MessageRow): Message {
  const outgoing = row.direction === 'outbound';
  const failed = row.status === 'failed' || row.status === 'undelivered';
  return {
    id: row.id,
    conversation: { id: row.conversationId },
    contact: { id: row.contactId },
    phoneNumber: row.phoneNumberId === null ? null : { id: row.phoneNumberId, number: outgoing ? row.fromNumber : row.toNumber },
    template: row.templateId === null ? null : { id: row.templateId },
    message: row.body,
    direction: row.direction,
    outgoing,
    status: row.status,
    // Unread is for people to look at: incoming messages, and outgoing ones that errored (docs/inbox.md).
    read: row.readAt !== null || (outgoing && !failed),
    encoding: row.encoding,
    segments: row.segments,
    price: formatMoney(row.price),
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
  };
}
