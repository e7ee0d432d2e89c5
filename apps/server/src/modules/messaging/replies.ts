import { v7 as uuidv7 } from 'uuid';
import { countSegments, type MessageEventData } from '@parley/shared';
import type { Tx } from '../../platform/db/client.js';
import { messages, type MessageRow } from '../../platform/db/schema/index.js';
import { publishEvent } from '../../platform/events/outbox.js';
import { presentMessage } from './messagePresenter.js';
import { touchConversations } from './conversations.js';
import { wakeDispatchers } from './dispatcher.js';

export interface AutomaticReply {
  accountId: string;
  conversationId: string;
  contactId: string;
  phoneNumberId: string;
  /** The account's number the reply goes from (the one the contact wrote to). */
  from: string;
  to: string;
  text: string;
  /** The incoming message answered. */
  replyToId: string;
  /** What kind of automatic reply it is (message.eventType). */
  eventType: string;
  now: Date;
}

/**
 * Queues an automatic reply (a compliance confirmation, HELP's answer) on the conversation the contact
 * wrote in, in the caller's transaction; the dispatcher sends it. Segments and encoding are counted as for
 * any message, and the body is stored as it will be sent (after smart encoding). It is free (price 0, no
 * ledger entry: carrier rules make these replies mandatory, so the account is not charged for them) and
 * bypasses the sender's consent checks on purpose: an opt-out confirmation goes to a contact that has just
 * opted out. Quiet hours do not hold it (no time zone): it answers a message the contact just sent.
 */
export async function queueAutomaticReply(tx: Tx, reply: AutomaticReply): Promise<MessageRow> {
  const count = countSegments(reply.text);
  const [row] = await tx
    .insert(messages)
    .values({
      id: uuidv7(),
      accountId: reply.accountId,
      conversationId: reply.conversationId,
      contactId: reply.contactId,
      phoneNumberId: reply.phoneNumberId,
      direction: 'outbound',
      fromNumber: reply.from,
      toNumber: reply.to,
      body: count.replaced ?? reply.text,
      encoding: count.encoding,
      segments: count.segments,
      price: '0',
      status: 'queued',
      sendAfter: reply.now,
      timeZone: null,
      replyToId: reply.replyToId,
      eventType: reply.eventType,
      createdAt: reply.now,
    })
    .returning();
  if (!row) throw new Error('the reply insert returned nothing');
  await touchConversations(tx, reply.accountId, [
    { conversationId: reply.conversationId, lastMessageId: row.id, lastMessageAt: reply.now },
  ]);
  const data: MessageEventData = { message: presentMessage(row) };
  await publishEvent(tx, { type: 'messageSent', accountId: reply.accountId, userId: null, data });
  // Wakes the dispatchers on commit, so the reply leaves without waiting for a poll.
  await wakeDispatchers(tx);
  return row;
}
