import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { AdapterPayload } from 'oidc-provider';
import type { Queryable } from '../../../platform/db/client.js';
import { apiClients, type ApiClientRow } from '../../../platform/db/schema/index.js';
import { sameSecretText } from '../../../platform/secrets/sameSecretText.js';

/** Secrets are generated, long and random; a shorter one is refused rather than hashed weakly. */
export const MIN_API_SECRET_LENGTH = 32;

function hashSecret(secret: string): string {
  return `sha256:${createHash('sha256').update(secret, 'utf8').digest('hex')}`;
}

/** Constant-time comparison of a presented secret with the stored hash. */
export function secretMatches(secretHash: string, presented: string): boolean {
  return sameSecretText(hashSecret(presented), secretHash);
}

export interface ApiClientInput {
  clientId: string;
  secret: string;
  accountId: string;
}

/** Registers (or replaces the secret of) a confidential client that gets tokens for one account. */
export async function registerApiClient(q: Queryable, input: ApiClientInput): Promise<void> {
  if (input.secret.length < MIN_API_SECRET_LENGTH) {
    throw new Error(`an API client secret must have at least ${MIN_API_SECRET_LENGTH} characters`);
  }
  const secretHash = hashSecret(input.secret);
  await q
    .insert(apiClients)
    .values({ clientId: input.clientId, secretHash, accountId: input.accountId })
    .onConflictDoUpdate({ target: apiClients.clientId, set: { secretHash, accountId: input.accountId } });
}

export async function findApiClient(q: Queryable, clientId: string): Promise<ApiClientRow | null> {
  const [row] = await q.select().from(apiClients).where(eq(apiClients.clientId, clientId)).limit(1);
  return row ?? null;
}

/**
 * The client metadata the issuer sees. `client_secret` carries the stored hash, never the secret:
 * the issuer's secret comparison is replaced by secretMatches (see provider.ts), and only the
 * basic and post methods are allowed, which never use the secret as a key.
 */
export function apiClientMetadata(row: ApiClientRow): AdapterPayload {
  return {
    client_id: row.clientId,
    client_secret: row.secretHash,
    grant_types: ['client_credentials'],
    response_types: [],
    redirect_uris: [],
    token_endpoint_auth_method: 'client_secret_basic',
  };
}
