import { sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { ConversationStartedEventData } from '@parley/shared';
import { queryRows, type Tx } from '../../platform/db/client.js';
import { conversations } from '../../platform/db/schema/index.js';
import { BULK_EVENT_TYPES, conversationIdOf, eventRowsOf, insertEventRows, laneOf, OUTBOX_LANES, type NewEvent } from '../../platform/events/outbox.js';
import { jsonRecords } from '../../platform/db/jsonRecords.js';

/*
 * A contact has one open conversation per number of the account (the partial unique index
 * conversations_open_idx); a closed one stays as history and the next message opens a new one. Sending and
 * receiving both come through here, in batches: one statement finds the open ones, inserts the missing ones
 * and publishes conversationStarted for each it inserted.
 */

/** Rows per statement (one json parameter each). */
const INSERT_CHUNK = 5000;

export interface ConversationWanted {
  contactId: string;
  phoneNumberId: string;
  /** The number itself, for the event. */
  phoneNumber: string;
  /** The group a new conversation belongs to (an existing one keeps its own). */
  groupId: string | null;
  /** The message about to be written into it: a new conversation starts pointing at it (no second update). */
  lastMessageId?: string;
}

export interface OpenedConversation {
  id: string;
  /** True when this call opened it. */
  started: boolean;
}

/** Events per statement: one json parameter each. */
const EVENT_CHUNK = 5000;

/**
 * Publishes any number of events in the caller's transaction, as publishEvents does (rows in `events` and a
 * NOTIFY that only a commit delivers), but each few thousand as one json parameter, sharing rows as
 * insertEventRows does: a campaign's conversationStarted events cost one statement per batch, NOTIFY
 * included, and one row per account and group, and ids follow the order given.
 */
export async function publishEventBatches(tx: Tx, events: readonly NewEvent[]): Promise<void> {
  if (events.length === 0) return;
  for (let i = 0; i < events.length; i += EVENT_CHUNK) {
    // group_id: as given, else the group of the conversation the event names (a join, not a round trip).
    const batch = events.slice(i, i + EVENT_CHUNK).map((e) => ({
      type: e.type,
      account_id: e.accountId ?? null,
      user_id: e.userId ?? null,
      data: e.data ?? null,
      derive: e.groupId === undefined,
      group_id: e.groupId ?? null,
      conversation_id: e.groupId === undefined ? conversationIdOf(e.data) : null,
    }));
    await insertEventRows(
      tx,
      sql`select r.type, r.account_id, r.user_id, case when r.derive then c.group_id else r.group_id end as group_id,
                   case when r.type in (${sql.join(BULK_EVENT_TYPES.map((t) => sql`${t}`), sql`, `)}) then ${OUTBOX_LANES.bulk}::smallint
                        else ${OUTBOX_LANES.interactive}::smallint end as lane,
                 r.data, r.n
            from rows from (json_to_recordset(${jsonRecords(batch)})
                 as (type text, account_id uuid, user_id uuid, data jsonb, derive boolean, group_id uuid, conversation_id uuid))
                 with ordinality as r(type, account_id, user_id, data, derive, group_id, conversation_id, n)
            left join conversations c on c.id = r.conversation_id and c.account_id = r.account_id`,
    );
  }
}

export const conversationKey = (contactId: string, phoneNumberId: string): string => `${contactId}:${phoneNumberId}`;

async function findOpen(tx: Tx, accountId: string, wanted: readonly ConversationWanted[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  if (wanted.length === 0) return found;
  const rows = await queryRows<{ id: string; contact_id: string; phone_number_id: string }>(
    tx,
    sql`select c.id, c.contact_id, c.phone_number_id
          from ${conversations} c
          join json_to_recordset(${jsonRecords(wanted.map((w) => ({ contact_id: w.contactId, phone_number_id: w.phoneNumberId })))})
               as k(contact_id uuid, phone_number_id uuid)
            on c.contact_id = k.contact_id and c.phone_number_id = k.phone_number_id
         where c.account_id = ${accountId} and c.closed_at is null`,
  );
  for (const row of rows) found.set(conversationKey(row.contact_id, row.phone_number_id), row.id);
  return found;
}

export function startedEvent(accountId: string, id: string, w: ConversationWanted, now: Date): NewEvent & { data: ConversationStartedEventData } {
  return {
    type: 'conversationStarted',
    accountId,
    data: {
      conversation: {
        id,
        contact: { id: w.contactId },
        phoneNumber: { id: w.phoneNumberId, number: w.phoneNumber },
        ...(w.groupId === null ? {} : { group: { id: w.groupId } }),
        created: { at: now.toISOString() },
      },
    },
  };
}

/**
 * The open conversation of each contact and number, opening those that have none, in the caller's
 * transaction. Answers by conversationKey(contactId, phoneNumberId). A conversation another transaction
 * opened meanwhile is found again rather than duplicated (ON CONFLICT on the open-conversation index).
 */
export async function openConversations(
  tx: Tx,
  accountId: string,
  wanted: readonly ConversationWanted[],
  now: Date = new Date(),
): Promise<Map<string, OpenedConversation>> {
  const unique = new Map<string, ConversationWanted>();
  for (const w of wanted) unique.set(conversationKey(w.contactId, w.phoneNumberId), w);
  const result = new Map<string, OpenedConversation>();
  const at = sql`${now.toISOString()}::timestamptz`;
  const entries = [...unique.entries()];
  for (let i = 0; i < entries.length; i += INSERT_CHUNK) {
    const chunk = entries.slice(i, i + INSERT_CHUNK).map(([key, w]) => ({ key, w, id: uuidv7() }));
    // One statement finds the open ones, opens the others and publishes their conversationStarted events
    // (startedEvent's data, built from the rows inserted, an absent group left out), NOTIFY included: a round
    // trip a batch.
    const rows = await queryRows<{ id: string; contact_id: string; phone_number_id: string; started: boolean; announced: number }>(
      tx,
      sql`with k as (
            select * from rows from (json_to_recordset(${jsonRecords(
              chunk.map(({ w, id }) => ({
                id,
                contact_id: w.contactId,
                phone_number_id: w.phoneNumberId,
                phone_number: w.phoneNumber,
                group_id: w.groupId,
                last_message_id: w.lastMessageId ?? null,
              })),
            )}) as (id uuid, contact_id uuid, phone_number_id uuid, phone_number text, group_id uuid, last_message_id uuid))
              with ordinality as r(id, contact_id, phone_number_id, phone_number, group_id, last_message_id, ord)
          ), found as (
            select c.id, c.contact_id, c.phone_number_id
              from ${conversations} c join k on c.contact_id = k.contact_id and c.phone_number_id = k.phone_number_id
             where c.account_id = ${accountId} and c.closed_at is null
          ), opened as (
            insert into ${conversations} (id, account_id, contact_id, phone_number_id, group_id, last_message_id, last_message_at,
                                          created_at, updated_at)
            select k.id, ${accountId}::uuid, k.contact_id, k.phone_number_id, k.group_id, k.last_message_id,
                   case when k.last_message_id is null then null else ${at} end, ${at}, ${at}
              from k
             where not exists (select 1 from found f where f.contact_id = k.contact_id and f.phone_number_id = k.phone_number_id)
            on conflict (account_id, contact_id, phone_number_id) where closed_at is null do nothing
            returning id, contact_id, phone_number_id, group_id
          ), ${eventRowsOf(
            sql`select 'conversationStarted'::text as type, ${accountId}::uuid as account_id, null::uuid as user_id, o.group_id,
                       ${laneOf('conversationStarted')}::smallint as lane,
                       jsonb_build_object('conversation', jsonb_strip_nulls(jsonb_build_object(
                         'id', o.id,
                         'contact', jsonb_build_object('id', o.contact_id),
                         'phoneNumber', jsonb_build_object('id', o.phone_number_id, 'number', k.phone_number),
                         'group', case when o.group_id is null then null else jsonb_build_object('id', o.group_id) end,
                         'created', jsonb_build_object('at', ${now.toISOString()}::text)))) as data,
                       row_number() over (order by k.ord) as n
                  from opened o join k on k.id = o.id`,
          )}
          select id, contact_id, phone_number_id, false as started, 0 as announced from found
          union all
          select id, contact_id, phone_number_id, true as started, (select n::int from announced) as announced from opened`,
    );
    const byKey = new Map(rows.map((r) => [conversationKey(r.contact_id, r.phone_number_id), r]));
    for (const { key } of chunk) {
      const row = byKey.get(key);
      if (row !== undefined) result.set(key, { id: row.id, started: row.started });
    }
  }
  // Opened by a concurrent transaction between our look and our insert: theirs is the open one.
  const raced = [...unique.entries()].filter(([key]) => !result.has(key)).map(([, w]) => w);
  for (const [key, id] of await findOpen(tx, accountId, raced)) result.set(key, { id, started: false });
  return result;
}

export interface ConversationTouch {
  conversationId: string;
  lastMessageId: string;
  lastMessageAt: Date;
}

/** Points each conversation at its latest message, in one statement (a later message already there wins). */
export async function touchConversations(tx: Tx, accountId: string, touches: readonly ConversationTouch[]): Promise<void> {
  const latest = new Map<string, ConversationTouch>();
  for (const t of touches) {
    const seen = latest.get(t.conversationId);
    if (seen === undefined || seen.lastMessageAt.getTime() <= t.lastMessageAt.getTime()) latest.set(t.conversationId, t);
  }
  if (latest.size === 0) return;
  // One order for every writer (by id), so two batches touching the same conversations never deadlock.
  const rows = [...latest.values()]
    .sort((a, b) => (a.conversationId < b.conversationId ? -1 : a.conversationId > b.conversationId ? 1 : 0))
    .map((t) => ({ id: t.conversationId, message_id: t.lastMessageId, at: t.lastMessageAt.toISOString() }));
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await tx.execute(
      sql`update ${conversations} c
             set last_message_id = v.message_id, last_message_at = v.at, updated_at = greatest(c.updated_at, v.at)
            from json_to_recordset(${jsonRecords(rows.slice(i, i + INSERT_CHUNK))}) as v(id uuid, message_id uuid, at timestamptz)
           where c.id = v.id and c.account_id = ${accountId}
             and (c.last_message_at is null or c.last_message_at <= v.at)`,
    );
  }
}
