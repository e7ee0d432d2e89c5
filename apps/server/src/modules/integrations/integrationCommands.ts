import { and, eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { z } from 'zod';
import {
  INTEGRATION_CREDENTIALS_REFUSED_MESSAGE,
  INTEGRATION_NO_CHANGES_MESSAGE,
  INTEGRATION_NOT_AVAILABLE_MESSAGE,
  INTEGRATION_NOT_CONNECTED_MESSAGE,
  type IntegrationKind,
  type SyncKind,
} from '@parley/shared';
import { integrationActivities, integrationContacts, integrationLines, integrations, integrationUsers, type IntegrationRow, type IntegrationSyncRow } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import type { JobDefinition, JobQueue } from '../../platform/jobs/queue.js';
import type { ApiKeyAuth, Connector } from './connector.js';
import { connectorFetch, findIntegration, sealCredentials, sessionOf, syncIntegrationSubscriptions, type IntegrationDeps } from './integrationStore.js';
import { ProviderError } from './providerError.js';
import { connectorOf } from './registry.js';
import { createSync, failActiveSyncs, markSync } from './syncStore.js';
import { NOT_CONNECTED_REASON } from './syncJob.js';

/** The issues of a zod failure as the API's validation message ('field: message; ...'). */
export function validationMessage(error: z.ZodError): string {
  return error.issues.map((issue) => (issue.path.length === 0 ? issue.message : `${issue.path.join('.')}: ${issue.message}`)).join('; ');
}

export function requireConnector(kind: IntegrationKind): Connector {
  const connector = connectorOf(kind);
  if (connector === null) throw new AppError(409, 'conflict', INTEGRATION_NOT_AVAILABLE_MESSAGE);
  return connector;
}

async function requireConnected(deps: IntegrationDeps, accountId: string, kind: IntegrationKind): Promise<IntegrationRow> {
  const row = await findIntegration(deps.db, accountId, kind);
  if (row === null) throw new AppError(409, 'conflict', INTEGRATION_NOT_CONNECTED_MESSAGE);
  return row;
}

function apiKeyAuthOf(connector: Connector): ApiKeyAuth {
  if (connector.auth.type !== 'apiKey') throw new AppError(409, 'conflict', 'This integration connects through its provider: start with its Connect button');
  return connector.auth;
}

/**
 * Connects an API-key integration: the fields are checked, then tried against the provider, and only a key
 * the provider accepts is kept (encrypted). Connecting again replaces the key and clears an error.
 */
export async function connectIntegration(deps: IntegrationDeps, input: { accountId: string; userId: string | null; kind: IntegrationKind; body: unknown }): Promise<void> {
  const connector = requireConnector(input.kind);
  const auth = apiKeyAuthOf(connector);
  const fields = auth.fields.safeParse(input.body);
  if (!fields.success) throw new AppError(400, 'validation_failed', validationMessage(fields.error));
  let connected;
  try {
    connected = await auth.connect({ fetch: connectorFetch(deps.config, connector), config: deps.config }, fields.data);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    throw new AppError(400, 'bad_request', error.kind === 'unauthorized' ? INTEGRATION_CREDENTIALS_REFUSED_MESSAGE : error.message);
  }
  await saveConnection(deps, { ...input, connection: connected.connection, credentials: connected.credentials });
}

/** Keeps a connection the provider accepted (API key, or OAuth tokens), with the properties kept from before. */
export async function saveConnection(
  deps: IntegrationDeps,
  input: { accountId: string; userId: string | null; kind: IntegrationKind; connection: Record<string, string>; credentials: Record<string, string> },
): Promise<void> {
  const existing = await findIntegration(deps.db, input.accountId, input.kind);
  const id = existing?.id ?? uuidv7();
  const credentials = await sealCredentials(deps, id, input.credentials);
  const now = new Date();
  await deps.db.transaction(async (tx) => {
    await tx
      .insert(integrations)
      .values({ id, accountId: input.accountId, kind: input.kind, status: 'connected', connection: input.connection, credentials, connectedBy: input.userId, connectedAt: now, updatedAt: now })
      .onConflictDoUpdate({
        target: [integrations.accountId, integrations.kind],
        set: { status: 'connected', connection: input.connection, credentials, errorReason: null, connectedBy: input.userId, connectedAt: now, updatedAt: now },
      });
    await syncIntegrationSubscriptions(tx, input.accountId, true);
  });
}

/** Changes properties: only the fields sent, each checked by the kind's schema; unknown keys and no change are refused. */
export async function saveProperties(deps: IntegrationDeps, accountId: string, kind: IntegrationKind, body: Record<string, unknown>): Promise<void> {
  const connector = requireConnector(kind);
  const row = await requireConnected(deps, accountId, kind);
  if (Object.keys(body).length === 0) throw new AppError(400, 'validation_failed', INTEGRATION_NO_CHANGES_MESSAGE);
  const parsed = connector.properties.partial().safeParse(body);
  if (!parsed.success) throw new AppError(400, 'validation_failed', validationMessage(parsed.error));
  const properties = { ...connector.defaultProperties, ...row.properties, ...parsed.data };
  await deps.db.update(integrations).set({ properties, updatedAt: new Date() }).where(eq(integrations.id, row.id));
}

/** Starts a sync of contacts or tags as a job; 409 while one runs. */
export async function requestSync(
  deps: IntegrationDeps & { jobs: JobQueue },
  job: JobDefinition,
  input: { accountId: string; userId: string | null; kind: IntegrationKind; syncKind: SyncKind },
): Promise<IntegrationSyncRow> {
  const connector = requireConnector(input.kind);
  const row = await requireConnected(deps, input.accountId, input.kind);
  if (row.status !== 'connected') throw new AppError(409, 'conflict', row.errorReason ?? INTEGRATION_NOT_CONNECTED_MESSAGE);
  if (connector.sync[input.syncKind] === undefined) throw new AppError(409, 'conflict', `This integration does not synchronize ${input.syncKind}`);
  const sync = await createSync(deps.db, input);
  try {
    await deps.jobs.send(job, { syncId: sync.id }, { singletonKey: sync.id });
  } catch (error) {
    // A sync no job will run would hold the integration's one active place for good.
    await markSync(deps.db, sync.id, { status: 'failed', error: 'The sync could not be queued; try again' });
    throw error;
  }
  return sync;
}

/**
 * Disconnects: revokes the credentials at the provider where it allows it (its failure does not keep the
 * connection), drops them, ends active syncs, pending activities and contact links, and stops the outbox
 * subscription.
 */
export async function disconnectIntegration(deps: IntegrationDeps, accountId: string, kind: IntegrationKind): Promise<void> {
  const connector = requireConnector(kind);
  const row = await requireConnected(deps, accountId, kind);
  if (connector.revoke !== undefined) {
    try {
      await connector.revoke(await sessionOf(deps, connector, row));
    } catch {
      // Revoking is a courtesy to the provider: the credentials are dropped here whatever it answers.
    }
  }
  await deps.db.transaction(async (tx) => {
    await tx.delete(integrations).where(eq(integrations.id, row.id));
    await failActiveSyncs(tx, accountId, kind, NOT_CONNECTED_REASON);
    await tx.delete(integrationActivities).where(and(eq(integrationActivities.accountId, accountId), eq(integrationActivities.kind, kind), eq(integrationActivities.status, 'pending')));
    await tx.delete(integrationContacts).where(and(eq(integrationContacts.accountId, accountId), eq(integrationContacts.kind, kind)));
    // A phone system's numbers, their mapping and its users (AirCall) go with the connection.
    await tx.delete(integrationLines).where(and(eq(integrationLines.accountId, accountId), eq(integrationLines.kind, kind)));
    await tx.delete(integrationUsers).where(and(eq(integrationUsers.accountId, accountId), eq(integrationUsers.kind, kind)));
    const [other] = await tx.select({ id: integrations.id }).from(integrations).where(eq(integrations.accountId, accountId)).limit(1);
    await syncIntegrationSubscriptions(tx, accountId, other !== undefined);
  });
}
