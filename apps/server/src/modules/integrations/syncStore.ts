import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { activeSyncStatuses, INTEGRATION_SYNC_RUNNING_MESSAGE, type IntegrationKind, type IntegrationSync, type SyncKind } from '@parley/shared';
import type { Queryable, Tx } from '../../platform/db/client.js';
import { integrationSyncs, type IntegrationSyncRow } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';

/** What one page of a sync adds to its counts. */
export interface PageCounts {
  created: number;
  updated: number;
  skipped: number;
  done: number;
  /** Skipped records by reason, with the records' names. */
  reasons: Map<string, string[]>;
}

export const emptyCounts = (): PageCounts => ({ created: 0, updated: 0, skipped: 0, done: 0, reasons: new Map() });

export function skip(counts: PageCounts, reason: string, example: string): void {
  counts.skipped += 1;
  counts.reasons.set(reason, [...(counts.reasons.get(reason) ?? []), example]);
}

const EXAMPLES_KEPT = 5;

function mergeReasons(kept: IntegrationSyncRow['skippedReasons'], added: PageCounts['reasons']): IntegrationSyncRow['skippedReasons'] {
  const merged = kept.map((r) => ({ ...r, examples: [...r.examples] }));
  for (const [reason, examples] of added) {
    let entry = merged.find((r) => r.reason === reason);
    if (entry === undefined) {
      entry = { reason, count: 0, examples: [] };
      merged.push(entry);
    }
    entry.count += examples.length;
    entry.examples = [...entry.examples, ...examples].slice(0, EXAMPLES_KEPT);
  }
  return merged;
}

/** A new sync, queued; 409 while another of the integration is active (the partial unique index decides races). */
export async function createSync(q: Queryable, input: { accountId: string; kind: IntegrationKind; syncKind: SyncKind; userId: string | null }): Promise<IntegrationSyncRow> {
  const active = await q
    .select({ id: integrationSyncs.id })
    .from(integrationSyncs)
    .where(and(eq(integrationSyncs.accountId, input.accountId), eq(integrationSyncs.kind, input.kind), inArray(integrationSyncs.status, [...activeSyncStatuses])))
    .limit(1);
  if (active.length > 0) throw new AppError(409, 'conflict', INTEGRATION_SYNC_RUNNING_MESSAGE);
  const [row] = await q
    .insert(integrationSyncs)
    .values({ id: uuidv7(), accountId: input.accountId, kind: input.kind, syncKind: input.syncKind, requestedBy: input.userId })
    .onConflictDoNothing()
    .returning();
  if (row === undefined) throw new AppError(409, 'conflict', INTEGRATION_SYNC_RUNNING_MESSAGE);
  return row;
}

export async function findSync(q: Queryable, id: string): Promise<IntegrationSyncRow | null> {
  const [row] = await q.select().from(integrationSyncs).where(eq(integrationSyncs.id, id)).limit(1);
  return row ?? null;
}

/** The sync row locked for the page being written: a second worker on the same sync waits, then sees the new cursor. */
export async function lockSync(tx: Tx, id: string): Promise<IntegrationSyncRow | null> {
  const [row] = await tx.select().from(integrationSyncs).where(eq(integrationSyncs.id, id)).for('update');
  return row ?? null;
}

/** Adds a page's counts and moves the cursor on, in the page's transaction. */
export async function recordPage(tx: Tx, row: IntegrationSyncRow, counts: PageCounts, next: string | null, total: number | undefined): Promise<void> {
  await tx
    .update(integrationSyncs)
    .set({
      cursor: next,
      done: row.done + counts.done,
      created: row.created + counts.created,
      updated: row.updated + counts.updated,
      skipped: row.skipped + counts.skipped,
      skippedReasons: mergeReasons(row.skippedReasons, counts.reasons),
      ...(total === undefined ? {} : { total }),
      status: 'running',
      resumeAt: null,
      updatedAt: new Date(),
    })
    .where(eq(integrationSyncs.id, row.id));
}

export async function markSync(
  q: Queryable,
  id: string,
  change: { status: IntegrationSyncRow['status']; error?: string; resumeAt?: Date | null; started?: boolean },
): Promise<void> {
  const now = new Date();
  await q
    .update(integrationSyncs)
    .set({
      status: change.status,
      updatedAt: now,
      ...(change.error === undefined ? {} : { error: change.error }),
      ...(change.resumeAt === undefined ? {} : { resumeAt: change.resumeAt }),
      ...(change.started === true ? { startedAt: sql`coalesce(${integrationSyncs.startedAt}, now())` } : {}),
      ...(change.status === 'completed' || change.status === 'failed' ? { finishedAt: now } : {}),
    })
    .where(eq(integrationSyncs.id, id));
}

/** Active syncs of an integration end as failed (it was disconnected or its credentials refused). */
export async function failActiveSyncs(q: Queryable, accountId: string, kind: IntegrationKind, error: string): Promise<void> {
  await q
    .update(integrationSyncs)
    .set({ status: 'failed', error, finishedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(integrationSyncs.accountId, accountId), eq(integrationSyncs.kind, kind), inArray(integrationSyncs.status, [...activeSyncStatuses])));
}

/** The latest sync of each kind of an integration. */
export async function latestSyncs(q: Queryable, accountId: string, kind: IntegrationKind): Promise<Partial<Record<SyncKind, IntegrationSyncRow>>> {
  const latest: Partial<Record<SyncKind, IntegrationSyncRow>> = {};
  for (const syncKind of ['contacts', 'tags'] as const) {
    const [row] = await q
      .select()
      .from(integrationSyncs)
      .where(and(eq(integrationSyncs.accountId, accountId), eq(integrationSyncs.kind, kind), eq(integrationSyncs.syncKind, syncKind)))
      .orderBy(desc(integrationSyncs.createdAt), desc(integrationSyncs.id))
      .limit(1);
    if (row !== undefined) latest[syncKind] = row;
  }
  return latest;
}

export function presentSync(row: IntegrationSyncRow): IntegrationSync {
  return {
    id: row.id,
    kind: row.syncKind,
    status: row.status,
    progress: { done: row.done, ...(row.total === null ? {} : { total: row.total }) },
    created: row.created,
    updated: row.updated,
    skipped: row.skipped,
    skippedReasons: row.skippedReasons,
    ...(row.resumeAt === null ? {} : { resumeAt: row.resumeAt.toISOString() }),
    ...(row.error === null ? {} : { error: row.error }),
    ...(row.startedAt === null ? {} : { startedAt: row.startedAt.toISOString() }),
    ...(row.finishedAt === null ? {} : { finishedAt: row.finishedAt.toISOString() }),
    createdAt: row.createdAt.toISOString(),
  };
}
