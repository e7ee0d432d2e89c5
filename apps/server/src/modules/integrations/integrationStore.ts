import { and, eq, sql } from 'drizzle-orm';
import type { IntegrationKind } from '@parley/shared';
import type { Config } from '../../platform/config.js';
import type { Db, Queryable } from '../../platform/db/client.js';
import { integrations, type IntegrationRow } from '../../platform/db/schema/index.js';
import { createGuardedFetch, type GuardedFetch } from '../../platform/net/guardedFetch.js';
import { existingSecretsCipher, storingCipher } from '../../platform/secrets/keyring.js';
import { SecretDecryptionError } from '../../platform/secrets/cipher.js';
import type { Connector, ConnectorSession, Credentials, OAuthTokens } from './connector.js';

/** What the integrations' commands and jobs stand on. */
export interface IntegrationDeps {
  db: Db;
  config: Config;
}

const SUBSCRIBER = 'integrations';
/** Refresh an OAuth token this long before it expires, so no call is made with one about to lapse. */
const REFRESH_MARGIN_MS = 60_000;

export const SECRETS_KEY_NEEDED_MESSAGE =
  'Integrations need SECRETS_KEY: set it on every process of this deployment (32 random bytes, e.g. `openssl rand -base64 32`) to store their keys encrypted';

/** The additional data credentials are sealed with: a ciphertext copied to another row does not open. */
const credentialsContext = (id: string): string => `integrations:${id}`;

export async function sealCredentials(deps: IntegrationDeps, id: string, credentials: Credentials): Promise<string> {
  const cipher = await storingCipher(deps.config.secrets, SECRETS_KEY_NEEDED_MESSAGE);
  return cipher.encrypt(JSON.stringify(credentials), credentialsContext(id));
}

export async function openCredentials(deps: IntegrationDeps, row: Pick<IntegrationRow, 'id' | 'credentials'>): Promise<Credentials> {
  const cipher = await existingSecretsCipher(deps.config.secrets);
  if (cipher === null) throw new SecretDecryptionError('No secrets key is configured to open the stored credentials');
  return JSON.parse(cipher.decrypt(row.credentials, credentialsContext(row.id))) as Credentials;
}

export async function findIntegration(q: Queryable, accountId: string, kind: IntegrationKind): Promise<IntegrationRow | null> {
  const [row] = await q
    .select()
    .from(integrations)
    .where(and(eq(integrations.accountId, accountId), eq(integrations.kind, kind)))
    .limit(1);
  return row ?? null;
}

export async function accountIntegrations(q: Queryable, accountId: string): Promise<IntegrationRow[]> {
  return q.select().from(integrations).where(eq(integrations.accountId, accountId));
}

/** The fetcher of a connector: the guarded one, with the operator's hosts and the connector's configured ones. */
export function connectorFetch(config: Config, connector: Connector): GuardedFetch {
  return createGuardedFetch({ allowedHosts: [...config.fetch.allowedHosts, ...connector.operatorHosts(config)] });
}

/**
 * A session for provider calls. An OAuth token about to expire is refreshed first and the new one kept
 * (docs/integrations.md, "Tokens").
 */
export async function sessionOf(deps: IntegrationDeps, connector: Connector, row: IntegrationRow): Promise<ConnectorSession> {
  const fetch = connectorFetch(deps.config, connector);
  let credentials = await openCredentials(deps, row);
  const expiresAt = credentials.expiresAt === undefined ? null : Date.parse(credentials.expiresAt);
  if (connector.auth.type === 'oauth' && expiresAt !== null && expiresAt - Date.now() < REFRESH_MARGIN_MS) {
    const tokens = await connector.auth.refresh({ credentials, fetch, config: deps.config });
    credentials = tokenCredentials(credentials, tokens);
    await deps.db
      .update(integrations)
      .set({ credentials: await sealCredentials(deps, row.id, credentials), updatedAt: new Date() })
      .where(eq(integrations.id, row.id));
  }
  return { credentials, properties: row.properties, fetch, config: deps.config };
}

/**
 * Tells the outbox that this account's sent messages, created contacts and closed conversations are wanted (event_subscriptions),
 * while an integration is connected (the subscriber keeps those whose property asks for them); messageReceived
 * is delivered for every account anyway.
 */
export async function syncIntegrationSubscriptions(q: Queryable, accountId: string, wanted: boolean): Promise<void> {
  await q.execute(sql`delete from event_subscriptions where account_id = ${accountId} and subscriber = ${SUBSCRIBER}`);
  if (wanted) {
    await q.execute(
      sql`insert into event_subscriptions (account_id, type, subscriber)
          values (${accountId}, 'messageSent', ${SUBSCRIBER}), (${accountId}, 'contactCreated', ${SUBSCRIBER}), (${accountId}, 'conversationClosed', ${SUBSCRIBER})`,
    );
  }
}

/** The credentials an OAuth connection keeps of its tokens (a refresh may leave the refresh token out: the old one stays). */
export function tokenCredentials(previous: Credentials, tokens: OAuthTokens): Credentials {
  return {
    ...previous,
    ...tokens.extra,
    accessToken: tokens.accessToken,
    ...(tokens.refreshToken === undefined ? {} : { refreshToken: tokens.refreshToken }),
    ...(tokens.expiresAt === undefined ? {} : { expiresAt: tokens.expiresAt }),
  };
}
