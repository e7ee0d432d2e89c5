import { sql, type SQL } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { complianceKeyword, normaliseContactMobile, type ConversationStartedEventData, type MessageEventData } from '@parley/shared';
import type { InboundMessage } from '../carriers/index.js';
import type { NumberCarrierRef } from '../carriers/index.js';
import { queryRows, type Database } from '../../platform/db/client.js';
import type { MessageRow } from '../../platform/db/schema/index.js';
import { eventRowsOf, laneOf, OUTBOX_LANES } from '../../platform/events/outbox.js';
import { presentMessage } from './messagePresenter.js';
import { startedEvent } from './conversations.js';
import { isForeignKeyViolation } from '../../platform/db/sqlErrors.js';
import { activeNumberIs, inboundNumberColumns } from './inboundNumber.js';

/*
 * The common incoming message, in two statements and no transaction of its own: a reply from a contact the
 * account knows, that is no compliance keyword, to an account without auto responders. One statement reads
 * the number, the contact and its open conversation; one writes the message, opens or touches the
 * conversation, keeps the number for the contact and publishes the events (with their NOTIFY). A statement
 * is atomic on its own, and it locks the contact as the full path does (inbound.ts), so two messages of one
 * contact still go one after the other. Each round trip waits for a CPU while a campaign sends, so an
 * incoming message that takes two instead of ten reaches the inbox sooner. Anything else (a new contact, a
 * keyword, auto responders, a redelivery, a race with another writer) is left to the full path.
 */

interface Target extends Record<string, unknown> {
  id: string;
  account_id: string;
  number: string;
  carrier: MessageRow['carrier'];
  /** The oldest group holding the number: a new conversation on it belongs there. */
  group_id: string | null;
  earlier_id: string | null;
  has_responders: boolean;
  contact_id: string | null;
  /** The number's universalReply: such messages take the full path (universalReply.ts). */
  universal_reply: boolean;
  /** The contact's open conversation with the number, and its group. */
  conversation_id: string | null;
  conversation_group_id: string | null;
}

/** The number, the contact and its open conversation with the number, in one statement. */
async function findTarget(database: Database, source: NumberCarrierRef, message: InboundMessage, mobile: string): Promise<Target | null> {
  const [row] = await queryRows<Target>(
    database.db,
    sql`select p.id, p.account_id, p.number, p.carrier, p.universal_reply, ${inboundNumberColumns(message.carrierMessageId)},
               ct.id as contact_id, cv.id as conversation_id, cv.group_id as conversation_group_id
          from phone_numbers p
          join accounts a on a.id = p.account_id
          left join contacts ct on ct.account_id = p.account_id and ct.mobile_number = ${mobile}
          left join conversations cv on cv.account_id = p.account_id and cv.contact_id = ct.id
                and cv.phone_number_id = p.id and cv.closed_at is null
         where ${activeNumberIs(message.to, source)}
         limit 1`,
  );
  return row ?? null;
}

function fileNameOf(url: string): string {
  try {
    const name = new URL(url).pathname.split('/').pop();
    return name !== undefined && name !== '' ? decodeURIComponent(name) : 'attachment';
  } catch {
    return 'attachment';
  }
}

/** messages.media of an incoming message: its attachments as the carrier links them. */
export const inboundMedia = (message: InboundMessage): MessageRow['media'] =>
  message.media.map((item) => ({ url: item.url, type: item.contentType, filename: fileNameOf(item.url) }));

/** The message row exactly as the statement writes it (every column given), so it is presented without reading it back. */
function messageRow(message: InboundMessage, target: Target, ids: { message: string; conversation: string; contact: string }, mobile: string, now: Date): MessageRow {
  return {
    id: ids.message,
    accountId: target.account_id,
    conversationId: ids.conversation,
    contactId: ids.contact,
    phoneNumberId: target.id,
    direction: 'inbound',
    fromNumber: mobile,
    toNumber: target.number,
    body: message.text,
    templateId: null,
    jobId: null,
    media: inboundMedia(message),
    encoding: 'GSM-7',
    segments: 0,
    price: '0.0000',
    refundedAt: null,
    status: 'received',
    carrier: target.carrier,
    carrierMessageId: message.carrierMessageId,
    errorCode: null,
    errorDescription: null,
    attempts: 0,
    sendAfter: now,
    timeZone: null,
    approvedOutsideHoursAt: null,
    claimedAt: null,
    sentAt: null,
    statusAt: message.receivedAt,
    readAt: null,
    replyToId: null,
    eventType: null,
    createdByUserId: null,
    createdAt: now,
  };
}

/** The INSERT of the message, its values selected `from` the guards (nothing is written when they give no row). */
function insertMessage(row: MessageRow, from: SQL): SQL {
  const at = (date: Date | null): SQL => sql`${date?.toISOString() ?? null}::timestamptz`;
  return sql`insert into messages (id, account_id, conversation_id, contact_id, phone_number_id, direction, from_number,
                                   to_number, body, media, encoding, segments, price, status, carrier, carrier_message_id,
                                   attempts, send_after, status_at, created_at)
             select ${row.id}::uuid, ${row.accountId}::uuid, ${row.conversationId}::uuid, ${row.contactId}::uuid,
                    ${row.phoneNumberId}::uuid, ${row.direction}, ${row.fromNumber}, ${row.toNumber}, ${row.body},
                    ${JSON.stringify(row.media)}::jsonb, ${row.encoding}, ${row.segments}::integer, ${row.price}::numeric,
                    ${row.status}, ${row.carrier}, ${row.carrierMessageId}, ${row.attempts}::integer, ${at(row.sendAfter)}, ${at(row.statusAt)},
                    ${at(row.createdAt)}
               ${from}
             on conflict (phone_number_id, carrier_message_id) where direction = 'inbound' and carrier_message_id is not null do nothing
             returning id`;
}

/** Events of one statement, in order; both kinds go in the interactive lane, whose NOTIFY payload is their ids. */
function eventRows(events: readonly { type: string; data: unknown }[]): string {
  if (events.some((e) => laneOf(e.type) !== OUTBOX_LANES.interactive)) throw new Error('only interactive events are published here');
  return JSON.stringify(events.map((e) => ({ type: e.type, data: e.data })));
}

export interface KnownContactMessage {
  message: MessageRow;
  conversationStarted: boolean;
}

/**
 * Receives `message` in the two statements above when it is the common case; null when it is not, or when
 * anything changed between the two (nothing was written then): the caller takes the full path.
 */
export async function receiveFromKnownContact(
  database: Database,
  source: NumberCarrierRef,
  message: InboundMessage,
  now: Date,
): Promise<KnownContactMessage | null> {
  const from = message.from.trim();
  // A number written internationally is the same whatever the account number's country is.
  if (!from.startsWith('+') || complianceKeyword(message.text) !== null) return null;
  const mobile = normaliseContactMobile(from, null, null).number;
  const target = await findTarget(database, source, message, mobile);
  if (target === null || target.earlier_id !== null || target.has_responders || target.contact_id === null || target.universal_reply) return null;

  const accountId = target.account_id;
  const contactId = target.contact_id;
  const started = target.conversation_id === null;
  const conversationId = target.conversation_id ?? uuidv7();
  const groupId = started ? target.group_id : target.conversation_group_id;
  const row = messageRow(message, target, { message: uuidv7(), conversation: conversationId, contact: contactId }, mobile, now);
  const received: MessageEventData = { message: presentMessage(row) };
  const events: { type: string; data: unknown }[] = [{ type: 'messageReceived', data: received }];
  if (started) {
    const data: ConversationStartedEventData = startedEvent(accountId, conversationId, { contactId, phoneNumberId: target.id, phoneNumber: target.number, groupId }, now).data;
    events.unshift({ type: 'conversationStarted', data });
  }
  const at = sql`${now.toISOString()}::timestamptz`;
  // The contact is locked as the full path locks it; an open conversation too, so it cannot close meanwhile.
  const conversation = started
    ? sql`msg as (${insertMessage(row, sql`from ct`)}),
          cv as (insert into conversations (id, account_id, contact_id, phone_number_id, group_id, last_message_id,
                                            last_message_at, created_at, updated_at)
                 select ${conversationId}::uuid, ${accountId}::uuid, ${contactId}::uuid, ${target.id}::uuid,
                        ${groupId}::uuid, msg.id, ${at}, ${at}, ${at} from msg
                 on conflict (account_id, contact_id, phone_number_id) where closed_at is null do nothing
                 returning id),`
    : sql`cv as (select id from conversations where id = ${conversationId} and account_id = ${accountId} and closed_at is null
                 for no key update),
          msg as (${insertMessage(row, sql`from ct, cv`)}),
          touched as (update conversations c
                         set last_message_id = msg.id, last_message_at = ${at}, updated_at = greatest(c.updated_at, ${at})
                        from msg
                       where c.id = ${conversationId} and (c.last_message_at is null or c.last_message_at <= ${at})),`;
  try {
    const [result] = await queryRows<{ message_id: string | null }>(
      database.db,
      sql`with ct as (select id from contacts where id = ${contactId} and account_id = ${accountId} for no key update),
               ${conversation}
               kept as (update contacts set sender_phone_number_id = ${target.id}
                          from msg
                         where contacts.id = ${contactId} and contacts.sender_phone_number_id is distinct from ${target.id}),
               ${eventRowsOf(sql`select r.type, ${accountId}::uuid as account_id, null::uuid as user_id, ${groupId}::uuid as group_id,
                                        ${OUTBOX_LANES.interactive}::smallint as lane, r.data, r.n
                                   from rows from (json_to_recordset(${eventRows(events)}::json) as (type text, data jsonb))
                                        with ordinality as r(type, data, n)
                                  where exists (select 1 from msg)`)}
          select (select id from msg) as message_id, (select n from announced) as notified`,
    );
    // No message: a redelivery won the insert, or the conversation closed meanwhile.
    if (result?.message_id !== row.id) return null;
    return { message: row, conversationStarted: started };
  } catch (error) {
    // The conversation this statement opened was opened by another writer first: the message was not written.
    if (isForeignKeyViolation(error)) return null;
    throw error;
  }
}
