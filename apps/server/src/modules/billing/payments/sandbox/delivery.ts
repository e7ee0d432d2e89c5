import { asc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../../../platform/db/client.js';
import { sandboxEvents } from '../../../../platform/db/schema/index.js';
import { applyProviderEvent, type AppliedEvent } from '../applyEvent.js';
import type { ProviderChange } from '../provider.js';

/** Events read and applied in one go; the rest wait for the next round. */
const BATCH = 100;

/**
 * Delivers the sandbox's pending events, oldest first, to the application's event path, as Stripe delivers
 * its webhooks: each one at least once (a delivery that dies before marking them is repeated, and the
 * event id makes the repeat harmless). Answers what each delivery did, for the caller's follow-ups.
 */
export async function deliverSandboxEvents(db: Db): Promise<AppliedEvent[]> {
  const rows = await db
    .select()
    .from(sandboxEvents)
    .where(isNull(sandboxEvents.deliveredAt))
    .orderBy(asc(sandboxEvents.createdAt), asc(sandboxEvents.id))
    .limit(BATCH);
  const results: AppliedEvent[] = [];
  for (const row of rows) {
    results.push(await applyProviderEvent(db, { provider: 'sandbox', id: row.id, type: row.type, change: revive(row.data as ProviderChange) }));
    await db.update(sandboxEvents).set({ deliveredAt: new Date() }).where(eq(sandboxEvents.id, row.id));
  }
  return results;
}

/** Delivers the given events again (a webhook repeated), marked or not; for tests and the operator's replays. */
export async function redeliverSandboxEvents(db: Db, ids: readonly string[]): Promise<AppliedEvent[]> {
  if (ids.length === 0) return [];
  const rows = await db.select().from(sandboxEvents).where(inArray(sandboxEvents.id, [...ids]));
  const byId = new Map(rows.map((row) => [row.id, row]));
  const results: AppliedEvent[] = [];
  for (const id of ids) {
    const row = byId.get(id);
    if (row) results.push(await applyProviderEvent(db, { provider: 'sandbox', id: row.id, type: row.type, change: revive(row.data as ProviderChange) }));
  }
  return results;
}

/** Dates come back from JSON as strings. */
function revive(change: ProviderChange): ProviderChange {
  switch (change.kind) {
    case 'subscription':
      return { ...change, currentPeriodEnd: change.currentPeriodEnd === null ? null : new Date(change.currentPeriodEnd) };
    case 'invoice':
      return { ...change, invoice: { ...change.invoice, issuedAt: new Date(change.invoice.issuedAt) } };
    case 'payment':
    case 'card':
    case 'cardFailed':
      return change;
  }
}
