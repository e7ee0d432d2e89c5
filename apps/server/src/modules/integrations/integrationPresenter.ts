import { INTEGRATION_NAMES, integrationKinds, type Integration, type IntegrationKind } from '@parley/shared';
import type { Queryable } from '../../platform/db/client.js';
import type { IntegrationRow } from '../../platform/db/schema/index.js';
import { accountIntegrations, findIntegration } from './integrationStore.js';
import { statusElsewhere } from './managedElsewhere.js';
import { connectorOf } from './registry.js';
import { latestSyncs, presentSync } from './syncStore.js';

/** One integration as its page reads it; no secret ever leaves (only what identifies the connection). */
export async function presentIntegration(q: Queryable, accountId: string, kind: IntegrationKind, row: IntegrationRow | null): Promise<Integration> {
  const elsewhere = await statusElsewhere(q, accountId, kind);
  if (elsewhere !== null) return { integration: kind, name: INTEGRATION_NAMES[kind], available: true, status: elsewhere, properties: {}, syncs: {} };
  const connector = connectorOf(kind);
  const syncs = row === null ? {} : await latestSyncs(q, accountId, kind);
  return {
    integration: kind,
    name: INTEGRATION_NAMES[kind],
    available: connector !== null,
    ...(connector === null ? {} : { auth: connector.auth.type }),
    status: row === null ? 'notConnected' : row.status,
    ...(row?.errorReason == null ? {} : { errorReason: row.errorReason }),
    ...(row === null ? {} : { connectedAt: row.connectedAt.toISOString(), connection: row.connection }),
    properties: { ...(connector?.defaultProperties ?? {}), ...(row?.properties ?? {}) },
    syncs: {
      ...(syncs.contacts === undefined ? {} : { contacts: presentSync(syncs.contacts) }),
      ...(syncs.tags === undefined ? {} : { tags: presentSync(syncs.tags) }),
    },
  };
}

export async function readIntegration(q: Queryable, accountId: string, kind: IntegrationKind): Promise<Integration> {
  return presentIntegration(q, accountId, kind, await findIntegration(q, accountId, kind));
}

/** Every kind of the spec, connected or not. */
export async function readIntegrations(q: Queryable, accountId: string): Promise<Integration[]> {
  const rows = new Map((await accountIntegrations(q, accountId)).map((r) => [r.kind, r]));
  const list: Integration[] = [];
  for (const kind of integrationKinds) list.push(await presentIntegration(q, accountId, kind, rows.get(kind) ?? null));
  return list;
}
