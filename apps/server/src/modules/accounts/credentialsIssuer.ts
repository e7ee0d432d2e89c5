import { randomBytes } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { CREDENTIALS_EXIST_MESSAGE, type ApiCredentials } from '@parley/shared';
import type { Db, Queryable, Tx } from '../../platform/db/client.js';
import { apiClients, type ApiClientRow } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { forgetApiClientSecret, registerApiClient } from '../identity/index.js';
import { lockAccount } from '../../platform/db/accountLock.js';

/** 36 random bytes: 48 base64url characters, 288 bits. */
const newSecret = (): string => randomBytes(36).toString('base64url');
const newClientId = (): string => `pk_${randomBytes(12).toString('hex')}`;

export const NO_CREDENTIALS_MESSAGE = 'This account has no API credentials yet; request them first.';

/** The account's API client; an account has one (requesting a second one is refused). */
export async function findCredentials(q: Queryable, accountId: string): Promise<ApiClientRow | null> {
  const [row] = await q
    .select()
    .from(apiClients)
    .where(eq(apiClients.accountId, accountId))
    .orderBy(asc(apiClients.createdAt))
    .limit(1);
  return row ?? null;
}

async function store(tx: Tx, accountId: string, clientId: string): Promise<ApiCredentials> {
  const secret = newSecret();
  await registerApiClient(tx, { clientId, secret, accountId });
  await tx.update(apiClients).set({ secretLastFour: secret.slice(-4) }).where(eq(apiClients.clientId, clientId));
  return { accountId, clientId, secret };
}

/** Creates the account's API client. The secret is only in this answer: the database keeps its hash. */
export function requestCredentials(db: Db, accountId: string): Promise<ApiCredentials> {
  return db.transaction(async (tx) => {
    await lockAccount(tx, accountId);
    if (await findCredentials(tx, accountId)) throw new AppError(409, 'conflict', CREDENTIALS_EXIST_MESSAGE);
    return store(tx, accountId, newClientId());
  });
}

/**
 * Gives the account's API client a new secret; the old one is refused at the token endpoint from the
 * commit on, and so are the access tokens issued for it: at once in this process, within
 * SECRET_VERSION_CACHE_MS in others (docs/identity.md, "Renewing a secret").
 */
export async function renewCredentials(db: Db, accountId: string): Promise<ApiCredentials> {
  const renewed = await db.transaction(async (tx) => {
    await lockAccount(tx, accountId);
    const current = await findCredentials(tx, accountId);
    if (!current) throw new AppError(404, 'not_found', NO_CREDENTIALS_MESSAGE);
    return store(tx, accountId, current.clientId);
  });
  forgetApiClientSecret(renewed.clientId);
  return renewed;
}
