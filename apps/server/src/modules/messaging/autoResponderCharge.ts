import type { Logger } from 'pino';
import { v7 as uuidv7 } from 'uuid';
import {
  AUTO_RESPONDER_EVENT_TYPE,
  countSegments,
  MESSAGE_TEXT_MAX,
  messagePrice,
  MessagePriceUnavailableError,
  moneyToUnits,
  type MessageEventData,
} from '@parley/shared';
import { debitAccount } from '../billing/index.js';
import { compileTemplate, loadAccountSendContext } from './messageSenderPrepare.js';
import type { Tx } from '../../platform/db/client.js';
import { messages, type ContactRow, type MessageRow } from '../../platform/db/schema/index.js';
import { publishEvent } from '../../platform/events/outbox.js';
import { presentMessage } from './messagePresenter.js';
import { touchConversations } from './conversations.js';
import { wakeDispatchers } from './dispatcher.js';

export interface ChargedReply {
  accountId: string;
  contact: ContactRow;
  conversationId: string;
  /** The account's number the contact wrote to: the reply goes from it. */
  phoneNumber: { id: string; number: string };
  /** The incoming message answered. */
  replyTo: MessageRow;
  /** The responder's text, with tokens. */
  template: string;
  now: Date;
}

/** The ledger key of the reply to one inbound message: whatever happens, it is charged once. */
export const autoReplyChargeKey = (inboundMessageId: string): string => `autoResponder:${inboundMessageId}`;

/**
 * Queues an auto responder's reply as an ordinary, charged business message, in the caller's transaction:
 * the response rendered for the contact (tokens), counted and priced for the contact's country like any
 * message, the price debited through the ledger (InsufficientBalanceError when the balance cannot cover
 * it: nothing is written), then the queued message on the conversation, messageSent, and a wake-up for the
 * dispatchers. Unlike messageSender it keeps replyToId and is not held by quiet hours (no time zone): it
 * answers what the contact has just sent. A text that renders empty or too long, or a country the plan does
 * not price, sends nothing (null, logged).
 */
export async function queueChargedReply(tx: Tx, reply: ChargedReply, log: Logger): Promise<MessageRow | null> {
  const { accountId, contact } = reply;
  const context = await loadAccountSendContext(tx, accountId);
  const text = compileTemplate(reply.template, context.attributeNames)(contact);
  // The caller's logger names the account, the inbound message and the responder.
  const skip = (why: string): null => {
    log.info(`auto reply not sent: ${why}`);
    return null;
  };
  if (text.trim() === '') return skip('the response is empty for this contact');
  if (text.length > MESSAGE_TEXT_MAX) return skip(`the response is longer than ${String(MESSAGE_TEXT_MAX)} characters for this contact`);

  const count = countSegments(text);
  let price: string;
  try {
    price = messagePrice(context.pricing, contact.mobileCountry, { segments: count.segments, mms: false });
  } catch (error) {
    if (!(error instanceof MessagePriceUnavailableError)) throw error;
    return skip(`the plan has no price for ${error.country}`);
  }
  if (moneyToUnits(price) > 0n) {
    const entry = await debitAccount(tx, {
      accountId,
      amount: price,
      description: `Auto reply to ${contact.mobileNumber}`,
      idempotencyKey: autoReplyChargeKey(reply.replyTo.id),
    });
    if (entry.duplicate) return skip('this message was answered already');
  }

  const [row] = await tx
    .insert(messages)
    .values({
      id: uuidv7(),
      accountId,
      conversationId: reply.conversationId,
      contactId: contact.id,
      phoneNumberId: reply.phoneNumber.id,
      direction: 'outbound',
      fromNumber: reply.phoneNumber.number,
      toNumber: contact.mobileNumber,
      body: count.replaced ?? text,
      encoding: count.encoding,
      segments: count.segments,
      price,
      status: 'queued',
      sendAfter: reply.now,
      timeZone: null,
      replyToId: reply.replyTo.id,
      eventType: AUTO_RESPONDER_EVENT_TYPE,
      createdAt: reply.now,
    })
    .returning();
  if (!row) throw new Error('the auto reply insert returned nothing');
  await touchConversations(tx, accountId, [{ conversationId: reply.conversationId, lastMessageId: row.id, lastMessageAt: reply.now }]);
  const data: MessageEventData = { message: presentMessage(row) };
  await publishEvent(tx, { type: 'messageSent', accountId, userId: null, data });
  // Wakes the dispatchers on commit, so the reply leaves without waiting for a poll.
  await wakeDispatchers(tx);
  return row;
}
