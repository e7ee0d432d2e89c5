import { maskSecret, type ApiCredentials } from '@parley/shared';
import type { ApiClientRow } from '../../platform/db/schema/index.js';

/** Stored credentials: the secret itself is gone (only its hash is kept), so it shows masked. */
export function presentStoredCredentials(row: ApiClientRow): ApiCredentials {
  return { accountId: row.accountId, clientId: row.clientId, secret: maskSecret(row.secretLastFour) };
}

/** Credentials just issued or renewed: the one answer that carries the whole secret. */
export function presentIssuedCredentials(issued: ApiCredentials): ApiCredentials {
  return { accountId: issued.accountId, clientId: issued.clientId, secret: issued.secret };
}
