import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/client.js';
import { events } from '../db/schema/index.js';

export const OUTBOX_CHANNEL = 'parley_outbox';

export interface NewEvent {
  type: string;
  accountId?: string | null;
  userId?: string | null;
  data: unknown;
}

/**
 * Writes events in the caller's transaction. They become visible to the dispatcher, and the NOTIFY
 * that wakes it is delivered, only when that transaction commits; a rollback drops both.
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
