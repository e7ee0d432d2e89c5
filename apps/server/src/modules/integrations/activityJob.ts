import { and, asc, eq, lt, ne, sql } from 'drizzle-orm';
import { z } from 'zod';
import { INTEGRATION_NAMES, isIntegrationKind } from '@parley/shared';
import { integrationActivities, integrationContacts, integrationConversationMessages, type ContactRow, type IntegrationActivityData } from '../../platform/db/schema/index.js';
import { defineJob, type JobDefinition } from '../../platform/jobs/queue.js';
import { findContact } from '../contacts/index.js';
import type { Connector, ConnectorSession } from './connector.js';
import { credentialsRefused } from './credentialFailure.js';
import { findIntegration, sessionOf } from './integrationStore.js';
import { ProviderError } from './providerError.js';
import { connectorOf } from './registry.js';
import { closeLinked, relayMessage } from './conversationRelay.js';
import { linkedExternalId } from './contactLinks.js';
import type { SyncJobDeps } from './syncJob.js';

export const ACTIVITY_JOB_NAME = 'integrations.activities';
const BATCH = 50;
const ATTEMPTS = 5;
const RETRY_SECONDS = 60;
/** Recorded and given-up rows are kept this long, for a look at what was sent, then deleted. */
const KEPT_DAYS = 7;

type ActivityRow = typeof integrationActivities.$inferSelect;
type MessageData = Extract<IntegrationActivityData, { messageId: string }>;
type Outcome = { status: 'recorded' | 'failed'; error?: string } | { status: 'retry'; error: string; afterSeconds: number };

async function sessionFor(deps: SyncJobDeps, row: ActivityRow, connector: Connector, sessions: Map<string, ConnectorSession | null>): Promise<ConnectorSession | null> {
  const key = `${row.accountId}:${row.kind}`;
  if (!sessions.has(key)) {
    const integration = await findIntegration(deps.db, row.accountId, connector.kind);
    sessions.set(key, integration?.status !== 'connected' ? null : await sessionOf(deps, connector, integration));
  }
  return sessions.get(key) ?? null;
}

/** Links the Parley contact to the provider's (the conflict rule reads `synced` as what both held). */
async function link(deps: SyncJobDeps, row: ActivityRow, externalId: string, synced: Record<string, string>): Promise<void> {
  await deps.db.insert(integrationContacts).values({ accountId: row.accountId, kind: row.kind, externalId, contactId: row.contactId, synced }).onConflictDoNothing();
}

/** A message on the provider's contact: the linked one, else the one it finds by mobile (then linked). */
async function recordMessage(deps: SyncJobDeps, row: ActivityRow, data: MessageData, connector: Connector, session: ConnectorSession, contact: ContactRow): Promise<Outcome> {
  if (connector.recordMessage === undefined) return { status: 'failed', error: 'This integration records no messages' };
  const linked = await linkedExternalId(deps.db, row);
  const found = await connector.recordMessage(session, {
    ...data,
    contact: { mobile: contact.mobileNumber, firstName: contact.firstName, lastName: contact.lastName },
    externalId: linked,
  });
  if (found === null) return { status: 'failed', error: `No ${INTEGRATION_NAMES[connector.kind]} contact has this mobile` };
  // Linked without field values: a later sync takes only fields Parley leaves empty (the conflict rule).
  if (linked === null) await link(deps, row, found, {});
  return { status: 'recorded' };
}

/**
 * A contact created in Parley, pushed to the provider and linked, so a later sync finds it rather than
 * creating it again; one linked meanwhile (a sync found it) is left alone.
 */
async function pushContact(deps: SyncJobDeps, row: ActivityRow, connector: Connector, session: ConnectorSession, contact: ContactRow): Promise<Outcome> {
  if (connector.pushContact === undefined) return { status: 'failed', error: 'This integration pushes no contacts' };
  if ((await linkedExternalId(deps.db, row)) !== null) return { status: 'recorded' };
  if (!contact.valid) return { status: 'failed', error: 'The contact has no valid mobile number' };
  const fields = { firstName: contact.firstName, lastName: contact.lastName, email: contact.email ?? '' };
  const externalId = await connector.pushContact(session, { mobile: contact.mobileNumber, ...fields });
  await link(deps, row, externalId, fields);
  return { status: 'recorded' };
}

async function outcomeOfError(deps: SyncJobDeps, row: ActivityRow, error: ProviderError): Promise<Outcome> {
  switch (error.kind) {
    case 'rateLimited':
      return { status: 'retry', error: error.message, afterSeconds: error.retryAfterSeconds };
    case 'unauthorized':
      if (isIntegrationKind(row.kind)) await credentialsRefused(deps.db, deps.mailer, { accountId: row.accountId, kind: row.kind, reason: error.message });
      return { status: 'failed', error: error.message };
    case 'failed':
      return row.attempts + 1 >= ATTEMPTS ? { status: 'failed', error: error.message } : { status: 'retry', error: error.message, afterSeconds: RETRY_SECONDS };
  }
}

async function recordOne(deps: SyncJobDeps, row: ActivityRow, sessions: Map<string, ConnectorSession | null>): Promise<Outcome> {
  const connector = isIntegrationKind(row.kind) ? connectorOf(row.kind) : null;
  if (connector === null) return { status: 'failed', error: 'Unknown integration' };
  try {
    const session = await sessionFor(deps, row, connector, sessions);
    if (session === null) return { status: 'failed', error: 'The integration is not connected' };
    const contact = (await findContact(deps.db, row.accountId, row.contactId))?.contact ?? null;
    if (contact === null) return { status: 'failed', error: 'The contact was removed' };
    const { data } = row;
    if ('action' in data) {
      return data.action === 'pushContact' ? await pushContact(deps, row, connector, session, contact) : await closeLinked(deps, row, data, connector, session);
    }
    // A connector that carries conversations takes contacts' texts into them (it records nothing else).
    if (connector.conversations !== undefined && connector.recordMessage === undefined) return await relayMessage(deps, row, data, connector, session, contact);
    return await recordMessage(deps, row, data, connector, session, contact);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return outcomeOfError(deps, row, error);
  }
}

/**
 * integrations.activities: records pending messages on the providers' contacts and pushes created contacts,
 * oldest first, a batch per run; a 429 or a passing failure sends the job again for later, so no worker sleeps.
 */
export function integrationActivityJob(deps: SyncJobDeps): JobDefinition<z.ZodObject> {
  const definition: JobDefinition<z.ZodObject> = defineJob({
    name: ACTIVITY_JOB_NAME,
    data: z.object({}),
    retryLimit: 3,
    async handler() {
      const sessions = new Map<string, ConnectorSession | null>();
      const rows = await deps.db.select().from(integrationActivities).where(eq(integrationActivities.status, 'pending')).orderBy(asc(integrationActivities.createdAt), asc(integrationActivities.id)).limit(BATCH);
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
      const kept = new Date(Date.now() - KEPT_DAYS * 86_400_000);
      await deps.db.delete(integrationActivities).where(and(ne(integrationActivities.status, 'pending'), lt(integrationActivities.createdAt, kept)));
      // A message's claim outlives its row, which alone could post it again.
      await deps.db.delete(integrationConversationMessages).where(lt(integrationConversationMessages.createdAt, new Date(kept.getTime() - KEPT_DAYS * 86_400_000)));
      if (rows.length === BATCH) await deps.jobs.send(definition, {});
    },
  });
  return definition;
}
