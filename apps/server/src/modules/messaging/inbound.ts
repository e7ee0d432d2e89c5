import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { v7 as uuidv7 } from 'uuid';
import { normaliseContactMobile, type MessageEventData } from '@parley/shared';
import type { InboundMessage } from '../carriers/index.js';
import type { NumberCarrierRef } from '../carriers/index.js';
import { contactEvent } from '../contacts/index.js';
import { findContact } from '../contacts/index.js';
import { queryRows, type Database, type Tx } from '../../platform/db/client.js';
import { contacts, messages, type ContactRow, type MessageRow } from '../../platform/db/schema/index.js';
import { publishEvent } from '../../platform/events/outbox.js';
import { presentMessage } from './messagePresenter.js';
import { answerWithAutoResponder } from './autoResponderReply.js';
import { openConversations, touchConversations } from './conversations.js';
import { inboundMedia, receiveFromKnownContact } from './inboundKnown.js';
import { activeNumberIs, inboundNumberColumns } from './inboundNumber.js';
import { applyComplianceKeyword, supportDetails, type KeywordOutcome } from './keywords.js';
import { universalReplyConversation } from './universalReply.js';

export type InboundResult =
  | { outcome: 'unknownNumber' }
  | { outcome: 'duplicate'; messageId: string | null }
  | {
      outcome: 'received';
      message: MessageRow;
      contactCreated: boolean;
      conversationStarted: boolean;
      /** The compliance keyword the message was, if any: nothing else may answer it then. */
      keyword: KeywordOutcome | null;
    };

interface NumberRow extends Record<string, unknown> {
  id: string;
  account_id: string;
  number: string;
  country: string;
  carrier: 'simulator' | 'smpp' | 'twilio';
  account_name: string;
  support: unknown;
  group_id: string | null;
  /** An inbound message with this carrier id already stored (a redelivery), if any. */
  earlier_id: string | null;
  /** Whether the account has auto responders it may use (none on a trial plan). */
  has_responders: boolean;
  /** The number's universalReply setting (universalReply.ts). */
  universal_reply: boolean;
}

/** Rolls the transaction back when a concurrent delivery of the same message won the insert. */
class AlreadyReceived extends Error {}

/**
 * The active number a message was sent to, its account (active), and the group holding the number (the
 * oldest when several do): new conversations on the number belong to that group. In the same statement,
 * what the rest of the transaction would otherwise ask in round trips of its own: whether the message was
 * stored already, and whether the account has auto responders.
 */
async function findNumber(tx: Tx, source: NumberCarrierRef, to: string, carrierMessageId: string): Promise<NumberRow | null> {
  const [row] = await queryRows<NumberRow>(
    tx,
    sql`select p.id, p.account_id, p.number, p.country, p.carrier, p.universal_reply, a.name as account_name, a.support,
               ${inboundNumberColumns(carrierMessageId)}
          from phone_numbers p join accounts a on a.id = p.account_id
         where ${activeNumberIs(to, source)}
         limit 1`,
  );
  return row ?? null;
}

/**
 * The contact with this number in the account, created when new (its country from the number itself, else
 * the account number's country), locked for the rest of the transaction so two messages of one contact
 * (two STOPs) are handled one after the other.
 */
async function contactFor(tx: Tx, number: NumberRow, from: string, now: Date): Promise<{ contact: ContactRow; created: boolean }> {
  const mobile = normaliseContactMobile(from, null, number.country);
  const lockContact = () =>
    tx
      .select()
      .from(contacts)
      .where(sql`${contacts.accountId} = ${number.account_id} and ${contacts.mobileNumber} = ${mobile.number}`)
      .for('no key update');
  // Most messages come from a known contact: one statement then.
  const [known] = await lockContact();
  if (known) return { contact: known, created: false };
  const inserted = await tx
    .insert(contacts)
    .values({
      id: uuidv7(),
      accountId: number.account_id,
      mobileNumber: mobile.number,
      mobileCountry: mobile.country,
      valid: mobile.valid,
      errorDescription: mobile.valid ? null : mobile.errorDescription,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing({ target: [contacts.accountId, contacts.mobileNumber] })
    .returning({ id: contacts.id });
  const [locked] = await lockContact();
  if (!locked) throw new Error(`the contact ${mobile.number} vanished`);
  return { contact: locked, created: inserted.length > 0 };
}

async function receiveInTransaction(tx: Tx, source: NumberCarrierRef, message: InboundMessage, log: Logger, now: Date): Promise<InboundResult> {
  const number = await findNumber(tx, source, message.to, message.carrierMessageId);
  if (number === null) {
    log.warn({ to: message.to, carrierMessageId: message.carrierMessageId, source }, 'inbound message to no active number of its connection dropped');
    return { outcome: 'unknownNumber' };
  }
  const accountId = number.account_id;
  if (number.earlier_id !== null) return { outcome: 'duplicate', messageId: number.earlier_id };

  const { contact, created } = await contactFor(tx, number, message.from, now);
  if (created) {
    const record = await findContact(tx, accountId, contact.id);
    if (record) await publishEvent(tx, contactEvent('contactCreated', accountId, record));
  }
  const universal = number.universal_reply ? await universalReplyConversation(tx, accountId, contact, number.id) : null;
  const opened =
    universal === null
      ? await openConversations(tx, accountId, [{ contactId: contact.id, phoneNumberId: number.id, phoneNumber: number.number, groupId: number.group_id }], now)
      : new Map([['universal', universal]]);
  const conversation = [...opened.values()][0];
  if (!conversation) throw new Error('no conversation was opened');

  const [row] = await tx
    .insert(messages)
    .values({
      id: uuidv7(),
      accountId,
      conversationId: conversation.id,
      contactId: contact.id,
      phoneNumberId: number.id,
      direction: 'inbound',
      fromNumber: contact.mobileNumber,
      toNumber: number.number,
      body: message.text,
      media: inboundMedia(message),
      status: 'received',
      carrier: number.carrier,
      carrierMessageId: message.carrierMessageId,
      statusAt: message.receivedAt,
      createdAt: now,
    })
    .onConflictDoNothing({
      target: [messages.phoneNumberId, messages.carrierMessageId],
      where: sql`${messages.direction} = 'inbound' and ${messages.carrierMessageId} is not null`,
    })
    .returning();
  if (!row) throw new AlreadyReceived();

  await touchConversations(tx, accountId, [{ conversationId: conversation.id, lastMessageId: row.id, lastMessageAt: now }]);
  if (universal === null && contact.senderPhoneNumberId !== number.id) {
    // The contact talked to this number last: the account's next message to it comes from here.
    await tx.execute(sql`update contacts set sender_phone_number_id = ${number.id} where id = ${contact.id}`);
  }
  const data: MessageEventData = { message: presentMessage(row) };
  await publishEvent(tx, { type: 'messageReceived', accountId, userId: null, data });

  const keyword = await applyComplianceKeyword(tx, {
    accountId,
    support: supportDetails(number.account_name, number.support),
    contact,
    conversationId: conversation.id,
    phoneNumber: { id: number.id, number: number.number },
    message: row,
    now,
  });
  if (keyword === null && number.has_responders) {
    // Only what no compliance keyword handled may get an auto responder's reply (autoResponderReply.ts).
    const phoneNumber = { id: number.id, number: number.number };
    await answerWithAutoResponder(tx, { accountId, contact, conversationId: conversation.id, phoneNumber, message: row, now }, log);
  }
  return { outcome: 'received', message: row, contactCreated: created, conversationStarted: conversation.started, keyword };
}

/**
 * An incoming message that arrived on the carrier connection `source`, in one transaction: the active number
 * of that connection it was sent to gives the account (no such number: logged and dropped); the contact is found by its number or created (contactCreated); the open
 * conversation of contact and number is found or opened (conversationStarted; in the group holding the
 * number); the message is written 'received' (messageReceived) and the contact keeps the number for the
 * account's next message. Then compliance keywords, before anything else answers (keywords.ts).
 *
 * A message handed over twice (a carrier redelivering) is stored and answered once: the unique
 * (phone_number_id, carrier_message_id) index of inbound messages decides, even between two processes at once.
 *
 * The common case, a known contact's message that no keyword or auto responder answers, takes two
 * statements instead (inboundKnown.ts); whatever it leaves comes here.
 */
export async function receiveInbound(
  database: Database,
  source: NumberCarrierRef,
  message: InboundMessage,
  log: Logger,
  now: Date = new Date(),
): Promise<InboundResult> {
  const known = await receiveFromKnownContact(database, source, message, now);
  if (known !== null) return { outcome: 'received', message: known.message, contactCreated: false, conversationStarted: known.conversationStarted, keyword: null };
  try {
    return await database.db.transaction((tx) => receiveInTransaction(tx, source, message, log, now));
  } catch (error) {
    if (!(error instanceof AlreadyReceived)) throw error;
    const [earlier] = await queryRows<{ id: string }>(
      database.db,
      sql`select m.id from messages m join phone_numbers p on p.id = m.phone_number_id join accounts a on a.id = p.account_id
           where m.direction = 'inbound' and m.carrier_message_id = ${message.carrierMessageId} and ${activeNumberIs(message.to, source)}
           limit 1`,
    );
    return { outcome: 'duplicate', messageId: earlier?.id ?? null };
  }
}
