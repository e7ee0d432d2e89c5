import { createHash } from 'node:crypto';
import type { Queryable } from '../../../platform/db/client.js';
import { ExpiringCache } from '../accessCache.js';
import type { Authenticator, Principal } from '../authenticator.js';
import { findApiClient } from './apiClients.js';

/**
 * The claim of an API client's access token that names the secret it was issued for. Renewing the secret
 * changes it, so tokens issued before are refused from then on (docs/identity.md, "Renewing a secret").
 */
export const SECRET_VERSION_CLAIM = 'secret_version';

/** A short digest of the stored hash: it names a secret without telling anything of it. */
export function secretVersionOf(secretHash: string): string {
  return createHash('sha256').update(secretHash, 'utf8').digest('hex').slice(0, 16);
}

/** How long this process keeps a client's current secret as confirmed (ms); the renewing process forgets at once. */
export const SECRET_VERSION_CACHE_MS = 2_000;
const confirmed = new ExpiringCache<true>(10_000);
const versionKey = (clientId: string, version: string): string => `${clientId}|${version}`;

/** Forgets what this process confirmed of a client's secret: call it once a renewal has committed. */
export function forgetApiClientSecret(clientId: string): void {
  confirmed.deletePrefix(`${clientId}|`);
}

async function isCurrentSecret(q: Queryable, clientId: string, version: string): Promise<boolean> {
  const key = versionKey(clientId, version);
  if (confirmed.get(key) === true) return true;
  const client = await findApiClient(q, clientId);
  const current = client !== null && secretVersionOf(client.secretHash) === version;
  // Only a confirmation is kept: a refused token is asked about again, never let in from memory.
  if (current) confirmed.set(key, true, Date.now() + SECRET_VERSION_CACHE_MS);
  return current;
}

/**
 * The embedded issuer's authenticator, refusing an API client's token once its secret has been renewed or
 * the client removed. People's tokens, and client tokens issued before tokens named their secret, pass as
 * the inner authenticator answers.
 */
export function refusingRenewedSecrets(inner: Authenticator, q: Queryable): Authenticator {
  return {
    async authenticate(token) {
      const principal: Principal | null = await inner.authenticate(token);
      if (principal?.clientId === undefined || principal.secretVersion === undefined) return principal;
      return (await isCurrentSecret(q, principal.clientId, principal.secretVersion)) ? principal : null;
    },
  };
}
