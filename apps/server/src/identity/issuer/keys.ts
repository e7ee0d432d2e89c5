import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Database } from '../../db/client.js';
import { identityKeys } from '../../db/schema/index.js';

export interface IssuerKeys {
  /** Private signing keys, newest first. */
  jwks: JWK[];
  /** Keys that sign the issuer's cookies, newest first. */
  cookieKeys: string[];
}

const KEY_SET_ID = 'default';

async function generateKeys(): Promise<IssuerKeys> {
  const { privateKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
  const jwk = await exportJWK(privateKey);
  return {
    jwks: [{ ...jwk, kid: randomUUID(), alg: 'RS256', use: 'sig' }],
    cookieKeys: [randomBytes(32).toString('base64url')],
  };
}

/**
 * The issuer's keys, generated at first start and kept. Processes starting together may each generate
 * a set, but only the first insert wins and everyone reads that one back.
 */
export async function loadIssuerKeys(database: Database): Promise<IssuerKeys> {
  const read = async (): Promise<IssuerKeys | null> => {
    const [row] = await database.db.select().from(identityKeys).where(eq(identityKeys.id, KEY_SET_ID)).limit(1);
    return row ? { jwks: row.jwks as JWK[], cookieKeys: row.cookieKeys as string[] } : null;
  };
  const existing = await read();
  if (existing) return existing;
  const fresh = await generateKeys();
  await database.db
    .insert(identityKeys)
    .values({ id: KEY_SET_ID, jwks: fresh.jwks, cookieKeys: fresh.cookieKeys })
    .onConflictDoNothing();
  const stored = await read();
  if (!stored) throw new Error('the issuer keys could not be stored');
  return stored;
}

/** The public half of the signing keys, as the JWKS endpoint publishes them. */
export function publicJwks(keys: IssuerKeys): JWK[] {
  return keys.jwks.map(({ kty, n, e, crv, x, y, kid, alg, use }) => ({ kty, n, e, crv, x, y, kid, alg, use }));
}
