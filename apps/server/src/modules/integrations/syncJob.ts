import { z } from 'zod';
import { activeSyncStatuses, isIntegrationKind, type SyncKind } from '@parley/shared';
import type { Tx } from '../../platform/db/client.js';
import type { IntegrationSyncRow } from '../../platform/db/schema/index.js';
import { defineJob, type JobContext, type JobDefinition, type JobQueue } from '../../platform/jobs/queue.js';
import type { Mailer } from '../../platform/mail/index.js';
import type { ConnectorSession, SyncPage, ProviderContact, ProviderContactTags, Connector } from './connector.js';
import { applyContactPage, applyTagPage, type SyncTarget } from './contactSync.js';
import { credentialsRefused } from './credentialFailure.js';
import { findIntegration, sessionOf, type IntegrationDeps } from './integrationStore.js';
import { ProviderError } from './providerError.js';
import { connectorOf } from './registry.js';
import { emptyCounts, findSync, lockSync, markSync, recordPage } from './syncStore.js';
import { callFilingOf, recordProviderCalls, type CallFiling } from './providerCalls.js';

export const SYNC_JOB_NAME = 'integrations.sync';
const RETRIES = 3;
export const NOT_CONNECTED_REASON = 'The integration was disconnected';

export interface SyncJobDeps extends IntegrationDeps {
  jobs: JobQueue;
  mailer: Mailer;
}

type ProviderPage = SyncPage<ProviderContact> | SyncPage<ProviderContactTags>;

function fetchPage(connector: Connector, syncKind: SyncKind, session: ConnectorSession, cursor: string | null): Promise<ProviderPage> | null {
  const fn = connector.sync[syncKind];
  return fn === undefined ? null : fn(session, cursor);
}

async function applyPage(tx: Tx, syncKind: SyncKind, target: SyncTarget, page: ProviderPage, counts: ReturnType<typeof emptyCounts>): Promise<void> {
  switch (syncKind) {
    case 'contacts':
      return applyContactPage(tx, target, page.items as ProviderContact[], counts);
    case 'tags':
      return applyTagPage(tx, target, page.items as ProviderContactTags[], counts);
  }
}

/**
 * Writes one page and moves the cursor, in one transaction, unless another run of the same sync already
 * moved it (then the page is not written twice). Answers whether the sync goes on.
 */
async function writePage(deps: SyncJobDeps, sync: IntegrationSyncRow, target: SyncTarget & CallFiling, page: ProviderPage): Promise<'more' | 'done' | 'stale'> {
  return deps.db.transaction(async (tx) => {
    const locked = await lockSync(tx, sync.id);
    if (locked === null || !activeSyncStatuses.includes(locked.status) || locked.cursor !== sync.cursor) return 'stale';
    const counts = emptyCounts();
    await applyPage(tx, sync.syncKind, target, page, counts);
    // A call tracker's page brings calls too: filed with their callers, in the same transaction.
    await recordProviderCalls(tx, target, page.calls ?? []);
    await recordPage(tx, locked, counts, page.next, page.total);
    if (page.next !== null) return 'more';
    await markSync(tx, sync.id, { status: 'completed' });
    return 'done';
  });
}

/** What a provider's refusal does to the sync: wait for its Retry-After, mark the integration in error, or fail. */
async function onProviderError(deps: SyncJobDeps, definition: JobDefinition, sync: IntegrationSyncRow, error: ProviderError): Promise<void> {
  switch (error.kind) {
    case 'rateLimited':
      // The job comes back when the provider allows; no worker sleeps meanwhile.
      await markSync(deps.db, sync.id, { status: 'waiting', resumeAt: new Date(Date.now() + error.retryAfterSeconds * 1000) });
      await deps.jobs.send(definition, { syncId: sync.id }, { startAfterSeconds: error.retryAfterSeconds });
      return;
    case 'unauthorized':
      if (!isIntegrationKind(sync.kind)) return;
      await credentialsRefused(deps.db, deps.mailer, { accountId: sync.accountId, kind: sync.kind, reason: error.message });
      return;
    case 'failed':
      await markSync(deps.db, sync.id, { status: 'failed', error: error.message });
      return;
  }
}

async function runSync(deps: SyncJobDeps, definition: JobDefinition, syncId: string, ctx: JobContext): Promise<void> {
  const first = await findSync(deps.db, syncId);
  if (first === null || !activeSyncStatuses.includes(first.status) || !isIntegrationKind(first.kind)) return;
  const integration = await findIntegration(deps.db, first.accountId, first.kind);
  const connector = connectorOf(first.kind);
  if (integration?.status !== 'connected' || connector === null) {
    await markSync(deps.db, syncId, { status: 'failed', error: NOT_CONNECTED_REASON });
    return;
  }
  await markSync(deps.db, syncId, { status: 'running', started: true, resumeAt: null });
  const session = await sessionOf(deps, connector, integration);
  const importTag = typeof integration.properties.importTag === 'string' ? integration.properties.importTag : '';
  const target: SyncTarget & CallFiling = { ...callFilingOf(first.accountId, first.kind, integration.properties), importTag };
  for (;;) {
    const sync = await findSync(deps.db, syncId);
    if (sync === null || !activeSyncStatuses.includes(sync.status) || ctx.signal.aborted) return;
    let page: ProviderPage | null;
    try {
      page = await fetchPage(connector, sync.syncKind, session, sync.cursor);
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      await onProviderError(deps, definition, sync, error);
      return;
    }
    if (page === null) {
      await markSync(deps.db, syncId, { status: 'failed', error: `${sync.syncKind} cannot be synchronized with this integration` });
      return;
    }
    if ((await writePage(deps, sync, target, page)) !== 'more') return;
  }
}

/**
 * integrations.sync: one sync, page after page as the provider pages (docs/integrations.md, "Sync"). The
 * cursor is kept after every page, so a run that dies resumes where it stopped; a 429 sends the job again
 * for after the provider's Retry-After.
 */
export function integrationSyncJob(deps: SyncJobDeps): JobDefinition<z.ZodObject<{ syncId: z.ZodUUID }>> {
  const definition: JobDefinition<z.ZodObject<{ syncId: z.ZodUUID }>> = defineJob({
    name: SYNC_JOB_NAME,
    data: z.object({ syncId: z.uuid() }),
    retryLimit: RETRIES,
    retryDelaySeconds: 10,
    async handler({ syncId }, ctx) {
      try {
        await runSync(deps, definition, syncId, ctx);
      } catch (error) {
        if (ctx.retryCount < RETRIES) throw error;
        await markSync(deps.db, syncId, { status: 'failed', error: error instanceof Error ? error.message : String(error) });
      }
    },
  });
  return definition;
}
