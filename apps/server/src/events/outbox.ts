import { sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../db/client.js';
import { events } from '../db/schema/index.js';

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

/** Events a campaign writes by the ten thousand; they take the bulk lane (events.lane 1). */
export const BULK_EVENT_TYPES: readonly string[] = ['messageSent', 'messageStatus'];

export const OUTBOX_LANES = { interactive: 0, bulk: 1 } as const;
export type OutboxLane = (typeof OUTBOX_LANES)[keyof typeof OUTBOX_LANES];

export const laneOf = (type: string): OutboxLane => (BULK_EVENT_TYPES.includes(type) ? OUTBOX_LANES.bulk : OUTBOX_LANES.interactive);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

const idOf = (value: unknown): string | null => (isRecord(value) && typeof value.id === 'string' ? value.id : null);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The conversation an event is about: `data.message.conversation.id` (message events) or
 * `data.conversation.id` (conversation events); null for any other event.
 */
export function conversationIdOf(data: unknown): string | null {
  if (!isRecord(data)) return null;
  const id = (isRecord(data.message) ? idOf(data.message.conversation) : null) ?? idOf(data.conversation);
  return id !== null && UUID.test(id) ? id : null;
}

/** The events.group_id of one new event: given, or read from its conversation in the INSERT itself. */
function groupIdValue(e: NewEvent): SQL | string | null {
  if (e.groupId !== undefined) return e.groupId;
  const conversationId = conversationIdOf(e.data);
  if (conversationId === null || e.accountId === undefined || e.accountId === null) return null;
  return sql`(select c.group_id from conversations c where c.id = ${conversationId} and c.account_id = ${e.accountId})`;
}

/**
 * Writes events in the caller's transaction. They become visible to the dispatcher, and the NOTIFY
 * that wakes it is delivered, only when that transaction commits; a rollback drops both. The group of an
 * event's conversation is filled in by the same statement (no extra round trip).
 */
export async function publishEvents(q: Queryable, newEvents: readonly NewEvent[]): Promise<number[]> {
  if (newEvents.length === 0) return [];
  const rows = await q
    .insert(events)
    .values(
      newEvents.map((e) => ({
        type: e.type,
        accountId: e.accountId ?? null,
        userId: e.userId ?? null,
        groupId: groupIdValue(e),
        lane: laneOf(e.type),
        data: e.data ?? null,
      })),
    )
    .returning({ id: events.id });
  await q.execute(sql`select pg_notify(${OUTBOX_CHANNEL}, '')`);
  return rows.map((r) => r.id);
}

export async function publishEvent(q: Queryable, event: NewEvent): Promise<number> {
  const [id] = await publishEvents(q, [event]);
  if (id === undefined) throw new Error('the outbox insert returned no id');
  return id;
}
