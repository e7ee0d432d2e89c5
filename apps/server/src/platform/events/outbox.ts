import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Queryable } from '../db/client.js';
import { isUuid } from '../db/ids.js';

export const OUTBOX_CHANNEL = 'parley_outbox';

export interface NewEvent {
  type: string;
  accountId?: string | null;
  userId?: string | null;
  data: unknown;
  /**
   * Who may receive it (realtime, push): left out, it is the group of the conversation the data names
   * (conversationIdOf), read as the event is written; given (a group id or null for the whole account), it
   * is taken as it is, e.g. to tell a group that a conversation moved out of it.
   */
  groupId?: string | null;
}

/**
 * The event types delivered for every account (platform/events/outboxDispatcher.ts): web push's
 * messageReceived. An event of any other type is pending only when its account subscribed to its type
 * (event_subscriptions: an account's webhooks and e-mail notifications, modules/notifications); otherwise it
 * is written already dispatched: it is in `events` for the websockets (modules/realtime/fanout.ts reads the
 * ids a NOTIFY names, dispatched or not) and is pruned like the others, but the dispatcher never reads or
 * marks it. A campaign writes four events a message (sent, its new conversation, two statuses); reading
 * and marking them for no one took a sixth of the embedded database's time.
 */
export const OUTBOX_DELIVERED_TYPES: readonly string[] = ['messageReceived'];

/**
 * events.dispatched_at of a new event of the type `type` for the account `accountId` (SQL): null, pending,
 * for a type delivered for everyone or one the account subscribed to; now() otherwise.
 */
export function initialDispatchedAt(type: SQL, accountId: SQL): SQL {
  return sql`(case when ${isDeliveredType(type)}
                     or exists (select 1 from event_subscriptions s where s.account_id = ${accountId} and s.type = ${type})
                   then null::timestamptz else now() end)`;
}

/**
 * Events one row holds at most: the fan-out reads and emits a row's events in one go, and a web process
 * must not spend long on one (an incoming message's webhook waits meanwhile).
 */
export const ROW_EVENTS_MAX = 250;

/**
 * Rows for the events table, as SQL over `from`: each column's expression (type, account_id, user_id, group_id,
 * lane, data) and `from`, the FROM clause with what follows it (WHERE, GROUP BY, ORDER BY: the rows' order is
 * the order of their ids).
 */
export interface EventRows {
  type: SQL;
  accountId: SQL;
  userId: SQL;
  groupId: SQL;
  lane: SQL;
  data: SQL;
  from: SQL;
}

/**
 * The one INSERT into the outbox: every event is written by it. Its dispatched_at is initialDispatchedAt's; it
 * returns the rows' id and lane, for the NOTIFY (writtenEventsOf's `announced`, or notifyOutbox).
 */
export function eventInsert(rows: EventRows): SQL {
  return sql`insert into events (type, account_id, user_id, group_id, lane, data, dispatched_at)
        select ${rows.type}, ${rows.accountId}, ${rows.userId}, ${rows.groupId}, ${rows.lane}, ${rows.data}, ${initialDispatchedAt(rows.type, rows.accountId)}
        ${rows.from}
        returning id, lane`;
}

/**
 * eventInsert and its NOTIFY as the CTEs that end a statement's WITH list: `written` (id, lane) and
 * `announced` (n, the NOTIFYs sent: each lane's ids joined by commas, as outboxPayloads writes them,
 * NOTIFY_IDS_MAX a payload). The statement must read `announced`, which PostgreSQL evaluates only when read;
 * the NOTIFY is delivered only if the caller's transaction commits.
 */
export function writtenEventsOf(rows: EventRows): SQL {
  return sql`written as (
          ${eventInsert(rows)}
        ), announced as (
          select count(*) as n
            from (select pg_notify(${OUTBOX_CHANNEL}, case when w.lane = ${OUTBOX_LANES.bulk} then ${BULK_PREFIX} else '' end
                                                   || string_agg(w.id::text, ',' order by w.id))
                    from (select id, lane, row_number() over (partition by lane order by id) as k from written) w
                   group by w.lane, (w.k - 1) / ${NOTIFY_IDS_MAX}) notified
        )`;
}

/**
 * Writes the events a SELECT yields (columns type, account_id, user_id, group_id, lane, data and n, their
 * order), announces them (NOTIFY, delivered only if the caller's transaction commits) and answers their rows'
 * ids, all in one statement. Events of a type not delivered for every account that share type, account,
 * user, group and lane take ONE row (up to ROW_EVENTS_MAX) whose data is the array of theirs, in order (the
 * websockets' fan-out and the dispatcher hand them on one by one, see modules/messaging/eventPayloads.ts): a
 * campaign batch's thousand status events are one row, not a thousand rows and two thousand index entries,
 * pending or not. A type of OUTBOX_DELIVERED_TYPES keeps a row an event. Rows come in the order of their first event.
 */
export async function insertEventRows(q: Queryable, source: SQL): Promise<NewEventId[]> {
  const inserted = await queryRows<{ id: string | number; lane: number; announced: number }>(
    q,
    sql`with ${eventRowsOf(source)}
        select id, lane, (select n::int from announced) as announced from written order by id`,
  );
  return inserted.map((row) => ({ id: Number(row.id), lane: asLane(row.lane) }));
}

/**
 * The CTEs of insertEventRows, to end another statement's WITH list: `event_source` (the SELECT, which may
 * read the statement's earlier CTEs, e.g. the rows a data-modifying one returned), `written` (id, lane) and
 * `announced` (n, the NOTIFYs sent). The statement must read `announced`, which PostgreSQL evaluates only
 * when read.
 */
export function eventRowsOf(source: SQL): SQL {
  return sql`event_source as (${source}), ${writtenEventsOf({
    type: sql`e.type`,
    accountId: sql`e.account_id`,
    userId: sql`e.user_id`,
    groupId: sql`e.group_id`,
    lane: sql`e.lane`,
    data: sql`case when count(*) = 1 then (array_agg(e.data))[1] else jsonb_agg(e.data order by e.n) end`,
    from: sql`from event_source e
           group by e.type, e.account_id, e.user_id, e.group_id, e.lane,
                    case when ${isDeliveredType(sql`e.type`)} then e.n end, (e.n - 1) / ${ROW_EVENTS_MAX}
           order by min(e.n)`,
  })}`;
}

/** Whether `type` (SQL) is one of OUTBOX_DELIVERED_TYPES. */
function isDeliveredType(type: SQL): SQL {
  return sql`(${type} in (${sql.join(
    OUTBOX_DELIVERED_TYPES.map((t) => sql`${t}`),
    sql`, `,
  )}))`;
}

/** Events a campaign writes by the ten thousand; they take the bulk lane (events.lane 1). */
export const BULK_EVENT_TYPES: readonly string[] = ['messageSent', 'messageStatus'];

export const OUTBOX_LANES = { interactive: 0, bulk: 1 } as const;
export type OutboxLane = (typeof OUTBOX_LANES)[keyof typeof OUTBOX_LANES];

/** The lane an events.lane value stands for. */
export const asLane = (value: number): OutboxLane => (value === OUTBOX_LANES.bulk ? OUTBOX_LANES.bulk : OUTBOX_LANES.interactive);

export const laneOf = (type: string): OutboxLane => (BULK_EVENT_TYPES.includes(type) ? OUTBOX_LANES.bulk : OUTBOX_LANES.interactive);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

const idOf = (value: unknown): string | null => (isRecord(value) && typeof value.id === 'string' ? value.id : null);

/**
 * The conversation an event is about: `data.message.conversation.id` (message events) or
 * `data.conversation.id` (conversation events); null for any other event.
 */
export function conversationIdOf(data: unknown): string | null {
  if (!isRecord(data)) return null;
  const id = (isRecord(data.message) ? idOf(data.message.conversation) : null) ?? idOf(data.conversation);
  return id !== null && isUuid(id) ? id : null;
}

/** The events.group_id of one new event: given, or read from its conversation in the INSERT itself. */
function groupIdValue(e: NewEvent): SQL {
  if (e.groupId !== undefined) return sql`${e.groupId}::uuid`;
  const conversationId = conversationIdOf(e.data);
  if (conversationId === null || e.accountId === undefined || e.accountId === null) return sql`null::uuid`;
  return sql`(select c.group_id from conversations c where c.id = ${conversationId} and c.account_id = ${e.accountId})`;
}

/** New events as eventInsert's rows: one VALUES row each, in the order given. */
function eventValues(newEvents: readonly NewEvent[]): EventRows {
  const values = newEvents.map(
    (e) =>
      sql`(${e.type}::text, ${e.accountId ?? null}::uuid, ${e.userId ?? null}::uuid, ${groupIdValue(e)}, ${laneOf(e.type)}::smallint,
           ${e.data === undefined || e.data === null ? null : JSON.stringify(e.data)}::jsonb)`,
  );
  return {
    type: sql`v.type`,
    accountId: sql`v.account_id`,
    userId: sql`v.user_id`,
    groupId: sql`v.group_id`,
    lane: sql`v.lane`,
    data: sql`v.data`,
    from: sql`from (values ${sql.join(values, sql`, `)}) as v(type, account_id, user_id, group_id, lane, data)`,
  };
}

/**
 * Writes events in the caller's transaction. They become visible to the dispatcher, and the NOTIFY that
 * names them is delivered, only when that transaction commits; a rollback drops both. The group of an
 * event's conversation is filled in by the same statement (no extra round trip).
 */
export async function publishEvents(q: Queryable, newEvents: readonly NewEvent[]): Promise<number[]> {
  if (newEvents.length === 0) return [];
  const rows = eventValues(newEvents);
  if (newEvents.length > NOTIFY_IDS_MAX) {
    const written = await queryRows<{ id: string | number; lane: number }>(q, eventInsert(rows));
    await notifyOutbox(
      q,
      written.map((r) => ({ id: Number(r.id), lane: asLane(r.lane) })),
    );
    return written.map((r) => Number(r.id));
  }
  // One round trip: the NOTIFY of each lane goes with the INSERT. An incoming message publishes two or three
  // times on its way in.
  const written = await queryRows<{ id: string | number }>(
    q,
    sql`with ${writtenEventsOf(rows)}
        select id, (select n::int from announced) as announced from written order by id`,
  );
  return written.map((r) => Number(r.id));
}

/** NOTIFY carries at most 8000 bytes; each payload stays below this. */
const NOTIFY_PAYLOAD_BYTES = 7000;

/** A new event as its NOTIFY names it. */
export interface NewEventId {
  id: number;
  lane: OutboxLane;
}

/** What a payload names: the lane of its events and their ids. */
export interface OutboxAnnouncement {
  lane: OutboxLane;
  ids: number[];
}

const BULK_PREFIX = 'b:';

/** Events one NOTIFY may name one by one: ids of up to 13 characters and commas stay under 7000 bytes. */
export const NOTIFY_IDS_MAX = 500;

/** What a lane's payloads start with. */
export const outboxPayloadPrefix = (lane: OutboxLane): string => (lane === OUTBOX_LANES.bulk ? BULK_PREFIX : '');

/**
 * The ids of new events as NOTIFY payloads, one lane per payload (bulk ones start with `b:`): runs of
 * consecutive ids as `first-last`, others alone, joined by commas (`41-140,143`), split so each payload
 * fits. One INSERT's ids are mostly consecutive, so a batch of a thousand events usually fits one payload.
 */
export function outboxPayloads(events: readonly NewEventId[]): string[] {
  const payloads: string[] = [];
  for (const lane of [OUTBOX_LANES.interactive, OUTBOX_LANES.bulk] as const) {
    const ids = events.filter((e) => e.lane === lane).map((e) => e.id);
    const prefix = outboxPayloadPrefix(lane);
    for (const body of rangePayloads(ids, NOTIFY_PAYLOAD_BYTES - prefix.length)) payloads.push(prefix + body);
  }
  return payloads;
}

function rangePayloads(unsorted: readonly number[], limit: number): string[] {
  const parts: string[] = [];
  let start: number | null = null;
  let end = 0;
  const close = (): void => {
    if (start !== null) parts.push(start === end ? String(start) : `${String(start)}-${String(end)}`);
  };
  for (const id of [...unsorted].sort((a, b) => a - b)) {
    if (start !== null && id === end + 1) {
      end = id;
      continue;
    }
    close();
    start = id;
    end = id;
  }
  close();
  const payloads: string[] = [];
  let current = '';
  for (const part of parts) {
    if (current !== '' && current.length + 1 + part.length > limit) {
      payloads.push(current);
      current = '';
    }
    current = current === '' ? part : `${current},${part}`;
  }
  if (current !== '') payloads.push(current);
  return payloads;
}

/** The lane and event ids a payload of outboxPayloads names; null for an empty or foreign payload. */
export function parseOutboxPayload(payload: string): OutboxAnnouncement | null {
  const bulk = payload.startsWith(BULK_PREFIX);
  const body = bulk ? payload.slice(BULK_PREFIX.length) : payload;
  if (!/^\d+(-\d+)?(,\d+(-\d+)?)*$/.test(body)) return null;
  const ids: number[] = [];
  for (const part of body.split(',')) {
    const [first, last] = part.split('-').map(Number);
    if (first === undefined || !Number.isSafeInteger(first)) return null;
    const to = last ?? first;
    // A range is at most one payload's worth of a single INSERT; a longer one is not ours.
    if (!Number.isSafeInteger(to) || to < first || to - first > 100_000) return null;
    for (let id = first; id <= to; id += 1) ids.push(id);
  }
  return { lane: bulk ? OUTBOX_LANES.bulk : OUTBOX_LANES.interactive, ids };
}

/**
 * Announces new events in the caller's transaction: the NOTIFY is delivered only if it commits. It wakes the
 * dispatcher, and web processes read the named events and emit them to their websockets (modules/realtime/fanout.ts).
 */
export async function notifyOutbox(q: Queryable, events: readonly NewEventId[]): Promise<void> {
  // Usually one payload; a batch of thousands of scattered ids takes a few.
  for (const payload of outboxPayloads(events)) await q.execute(sql`select pg_notify(${OUTBOX_CHANNEL}, ${payload})`);
}

export async function publishEvent(q: Queryable, event: NewEvent): Promise<number> {
  const [id] = await publishEvents(q, [event]);
  if (id === undefined) throw new Error('the outbox insert returned no id');
  return id;
}
