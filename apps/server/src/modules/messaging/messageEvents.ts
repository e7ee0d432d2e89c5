import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Queryable } from '../../platform/db/client.js';
import { messageStatuses, type MessageRow, type MessageStatus } from '../../platform/db/schema/index.js';
import { eventInsert, laneOf, notifyOutbox, OUTBOX_DELIVERED_TYPES, ROW_EVENTS_MAX, writtenEventsOf, type EventRows } from '../../platform/events/outbox.js';
import { jsonRecords } from '../../platform/db/jsonRecords.js';

/**
 * Message events written by reference (publishMessageEvents): a campaign writes them by the hundred
 * thousand, and the whole message in each (about 800 bytes of JSON) was most of what storing them cost.
 */
export const MESSAGE_REFERENCE_TYPES = ['messageSent', 'messageStatus'] as const;
export type MessageReferenceType = (typeof MESSAGE_REFERENCE_TYPES)[number];

for (const type of MESSAGE_REFERENCE_TYPES) {
  // The dispatcher hands rows on as they are; a reference row means nothing to a subscriber.
  if (OUTBOX_DELIVERED_TYPES.includes(type)) throw new Error(`${type} is delivered, so it cannot be written by reference`);
}

/**
 * What changes along a message's way (the rest of the message is read when the event is emitted): id,
 * status, error code, error description, status time, sent time.
 */
export type MessageSnapshot = [string, MessageStatus, string | null, string | null, string | null, string | null];

/** The data of a reference row. */
export interface MessageReferenceData {
  messages: MessageSnapshot[];
}

export const snapshotOf = (row: MessageRow): MessageSnapshot => [
  row.id,
  row.status,
  row.errorCode,
  row.errorDescription,
  row.statusAt?.toISOString() ?? null,
  row.sentAt?.toISOString() ?? null,
];

const isStatus = (value: unknown): value is MessageStatus => messageStatuses.some((s) => s === value);
const isNullableString = (value: unknown): value is string | null => value === null || typeof value === 'string';

/** The snapshots of a reference row's data, or null when the data is not one. */
export function referencedMessages(data: unknown): MessageSnapshot[] | null {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const { messages } = data as { messages?: unknown };
  if (!Array.isArray(messages)) return null;
  const snapshots: MessageSnapshot[] = [];
  for (const m of messages as unknown[]) {
    if (!Array.isArray(m) || m.length !== 6) return null;
    const [id, status, code, description, statusAt, sentAt] = m as unknown[];
    if (typeof id !== 'string' || !isStatus(status)) return null;
    if (![code, description, statusAt, sentAt].every(isNullableString)) return null;
    snapshots.push([id, status, code as string | null, description as string | null, statusAt as string | null, sentAt as string | null]);
  }
  return snapshots;
}

/**
 * The columns of a reference row of messages grouped by account (`accountId`) and their conversation's group
 * (`c.group_id`): its data names the messages (`messages`, the aggregate of their snapshots).
 */
function referenceRow(type: MessageReferenceType, userId: string | null, accountId: SQL, messages: SQL): Omit<EventRows, 'from'> {
  return {
    type: sql`${type}::text`,
    accountId,
    userId: sql`${userId}::uuid`,
    groupId: sql`c.group_id`,
    lane: sql`${laneOf(type)}::smallint`,
    data: sql`jsonb_build_object('messages', ${messages})`,
  };
}

/**
 * Writes message events in the caller's transaction, by reference: one row per account, user and group of
 * the messages' conversations (and per ROW_EVENTS_MAX messages), whose data names each message with what changes along its way
 * (MessageSnapshot), in the order given; the fan-out reads the messages when it emits (eventPayloads), each
 * as it was at the event. Then the outbox's NOTIFY, which only a commit delivers.
 */
export async function publishMessageEvents(
  q: Queryable,
  type: MessageReferenceType,
  rows: readonly MessageRow[],
  userId: string | null = null,
): Promise<void> {
  if (rows.length === 0) return;
  const records = rows.map((row) => ({ a: row.accountId, c: row.conversationId, m: snapshotOf(row) }));
  const written = await queryRows<{ id: string | number }>(
    q,
    eventInsert({
      ...referenceRow(type, userId, sql`e.a`, sql`jsonb_agg(e.m order by e.n)`),
      from: sql`from rows from (json_to_recordset(${jsonRecords(records)}) as (a uuid, c uuid, m jsonb)) with ordinality as e(a, c, m, n)
          left join conversations c on c.id = e.c and c.account_id = e.a
         group by e.a, c.group_id, (e.n - 1) / ${ROW_EVENTS_MAX}
         order by min(e.n)`,
    }),
  );
  await notifyOutbox(
    q,
    written.map((row) => ({ id: Number(row.id), lane: laneOf(type) })),
  );
}

/** A timestamptz column as toISOString writes it (UTC, milliseconds), for a snapshot written in SQL. */
const isoText = (column: SQL): SQL => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The rest of a statement whose first CTE, `changed`, is a data-modifying one returning messages' id,
 * account_id, conversation_id, status, error_code, error_description, status_at and sent_at: it writes their
 * events as publishMessageEvents does (rows by account, user and group, ROW_EVENTS_MAX a row, in the order
 * returned) and announces them, in the same statement. The caller's SELECT follows; it must read
 * `announced` (its column n), which PostgreSQL evaluates only when read. A message's way through the
 * engine then costs one round trip a step, and its row never travels to the application and back.
 */
export function messageEventsOfChanged(type: MessageReferenceType, userId: string | null = null): SQL {
  return sql`, numbered as (
      select ch.*, row_number() over () as n from changed ch
    ), ${writtenEventsOf({
      ...referenceRow(
        type,
        userId,
        sql`e.account_id`,
        sql`jsonb_agg(jsonb_build_array(
               e.id, e.status, e.error_code, e.error_description, ${isoText(sql`e.status_at`)}, ${isoText(sql`e.sent_at`)})
               order by e.n)`,
      ),
      from: sql`from numbered e
        left join conversations c on c.id = e.conversation_id and c.account_id = e.account_id
       group by e.account_id, c.group_id, (e.n - 1) / ${ROW_EVENTS_MAX}
       order by min(e.n)`,
    })}`;
}
