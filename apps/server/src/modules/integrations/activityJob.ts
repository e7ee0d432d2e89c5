import { and, asc, eq, lt, ne, sql } from 'drizzle-orm';
import { z } from 'zod';
import { INTEGRATION_NAMES, isIntegrationKind } from '@parley/shared';
import { integrationActivities, integrationContacts } from '../../platform/db/schema/index.js';
import { defineJob, type JobDefinition } from '../../platform/jobs/queue.js';
import { findContact } from '../contacts/index.js';
import type { ConnectorSession } from './connector.js';
import { credentialsRefused } from './credentialFailure.js';
import { findIntegration, sessionOf } from './integrationStore.js';
import { ProviderError } from './providerError.js';
import { connectorOf } from './registry.js';
import type { SyncJobDeps } from './syncJob.js';

export const ACTIVITY_JOB_NAME = 'integrations.activities';
const BATCH = 50;
const ATTEMPTS = 5;
const RETRY_SECONDS = 60;
/** Recorded and given-up rows are kept this long, for a look at what was sent, then deleted. */
const KEPT_DAYS = 7;

type ActivityRow = typeof integrationActivities.$inferSelect;
type Outcome = { status: 'recorded' | 'failed'; error?: string } | { status: 'retry'; error: string; afterSeconds: number };

async function externalIdOf(deps: SyncJobDeps, row: ActivityRow): Promise<string | null> {
  const [link] = await deps.db
    .select({ externalId: integrationContacts.externalId })
    .from(integrationContacts)
    .where(and(eq(integrationContacts.accountId, row.accountId), eq(integrationContacts.kind, row.kind), eq(integrationContacts.contactId, row.contactId)))
    .limit(1);
  return link?.externalId ?? null;
}

async function recordOne(deps: SyncJobDeps, row: ActivityRow, sessions: Map<string, ConnectorSession | null>): Promise<Outcome> {
  if (!isIntegrationKind(row.kind)) return { status: 'failed', error: 'Unknown integration' };
  const connector = connectorOf(row.kind);
  const key = `${row.accountId}:${row.kind}`;
  if (!sessions.has(key)) {
    const integration = await findIntegration(deps.db, row.accountId, row.kind);
    sessions.set(key, connector === null || integration?.status !== 'connected' ? null : await sessionOf(deps, connector, integration));
  }
  const session = sessions.get(key) ?? null;
  const contact = await findContact(deps.db, row.accountId, row.contactId);
  if (session === null || connector?.recordMessage === undefined) return { status: 'failed', error: 'The integration is not connected' };
  if (contact === null) return { status: 'failed', error: 'The contact was removed' };
  const linked = await externalIdOf(deps, row);
  try {
    const found = await connector.recordMessage(session, {
      ...row.data,
      contact: { mobile: contact.contact.mobileNumber, firstName: contact.contact.firstName, lastName: contact.contact.lastName },
      externalId: linked,
    });
    if (found === null) return { status: 'failed', error: `No ${INTEGRATION_NAMES[row.kind]} contact has this mobile` };
    if (linked === null) {
      // Linked without field values: a later sync takes only fields Parley leaves empty (the conflict rule).
      await deps.db.insert(integrationContacts).values({ accountId: row.accountId, kind: row.kind, externalId: found, contactId: row.contactId, synced: {} }).onConflictDoNothing();
    }
    return { status: 'recorded' };
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    switch (error.kind) {
      case 'rateLimited':
        return { status: 'retry', error: error.message, afterSeconds: error.retryAfterSeconds };
      case 'unauthorized':
        await credentialsRefused(deps.db, deps.mailer, { accountId: row.accountId, kind: row.kind, reason: error.message });
        return { status: 'failed', error: error.message };
      case 'failed':
        return row.attempts + 1 >= ATTEMPTS ? { status: 'failed', error: error.message } : { status: 'retry', error: error.message, afterSeconds: RETRY_SECONDS };
    }
  }
}

/**
 * integrations.activities: records pending messages on the providers' contacts, oldest first, a batch per run;
 * a 429 or a passing failure sends the job again for later, so no worker sleeps.
 */
export function integrationActivityJob(deps: SyncJobDeps): JobDefinition<z.ZodObject> {
  const definition: JobDefinition<z.ZodObject> = defineJob({
    name: ACTIVITY_JOB_NAME,
    data: z.object({}),
    retryLimit: 3,
    async handler() {
      const sessions = new Map<string, ConnectorSession | null>();
      const rows = await deps.db.select().from(integrationActivities).where(eq(integrationActivities.status, 'pending')).orderBy(asc(integrationActivities.createdAt)).limit(BATCH);
      for (const row of rows) {
        const outcome = await recordOne(deps, row, sessions);
        const attempts = sql`${integrationActivities.attempts} + 1`;
        if (outcome.status === 'retry') {
          await deps.db.update(integrationActivities).set({ attempts, lastError: outcome.error }).where(eq(integrationActivities.id, row.id));
          await deps.jobs.send(definition, {}, { startAfterSeconds: outcome.afterSeconds });
          return;
        }
        await deps.db
          .update(integrationActivities)
          .set({ status: outcome.status, attempts, lastError: outcome.error ?? null })
          .where(eq(integrationActivities.id, row.id));
      }
      await deps.db
        .delete(integrationActivities)
        .where(and(ne(integrationActivities.status, 'pending'), lt(integrationActivities.createdAt, new Date(Date.now() - KEPT_DAYS * 86_400_000))));
      if (rows.length === BATCH) await deps.jobs.send(definition, {});
    },
  });
  return definition;
}
