import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { SecretsConfig } from '../../../platform/config.js';
import type { Database } from '../../../platform/db/client.js';
import { identityKeys } from '../../../platform/db/schema/index.js';
import type { SecretCipher } from '../../../platform/secrets/cipher.js';
import { secretsCipher } from '../../../platform/secrets/keyring.js';

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

/** What a row's columns hold: the keys themselves, or (with a secrets key) the ciphertext of them. */
type StoredKeys = { jwks: unknown; cookieKeys: unknown };

const SEALED_CONTEXT = (column: string): string => `identity_keys:${KEY_SET_ID}:${column}`;

/**
 * The row's values for the keys: encrypted with the secrets key, like carrier secrets, when one is
 * configured (SECRETS_KEY, or the embedded database's key file); as they are otherwise (PostgreSQL without
 * SECRETS_KEY, which app/server.ts warns about). A jsonb string is a ciphertext; an array is the keys.
 */
function sealKeys(keys: IssuerKeys, cipher: SecretCipher | null): StoredKeys {
  if (cipher === null) return { jwks: keys.jwks, cookieKeys: keys.cookieKeys };
  return {
    jwks: cipher.encrypt(JSON.stringify(keys.jwks), SEALED_CONTEXT('jwks')),
    cookieKeys: cipher.encrypt(JSON.stringify(keys.cookieKeys), SEALED_CONTEXT('cookie_keys')),
  };
}

function openColumn(value: unknown, column: string, cipher: SecretCipher | null): unknown {
  if (typeof value !== 'string') return value;
  if (cipher === null) {
    throw new Error(`The issuer's signing keys are stored encrypted, and no secrets key is configured: set SECRETS_KEY to the key they were stored with`);
  }
  return JSON.parse(cipher.decrypt(value, SEALED_CONTEXT(column))) as unknown;
}

function openKeys(row: StoredKeys, cipher: SecretCipher | null): IssuerKeys {
  return { jwks: openColumn(row.jwks, 'jwks', cipher) as JWK[], cookieKeys: openColumn(row.cookieKeys, 'cookie_keys', cipher) as string[] };
}

/**
 * The issuer's keys, generated at first start and kept, encrypted at rest when a secrets key is configured
 * (docs/security.md); keys stored before that are encrypted as they are read. Processes starting together
 * may each generate a set, but only the first insert wins and everyone reads that one back.
 */
export async function loadIssuerKeys(database: Database, secrets: SecretsConfig): Promise<IssuerKeys> {
  // On the embedded database the key file is made on first use; on PostgreSQL only SECRETS_KEY gives one.
  const cipher = secrets.key !== null || secrets.keyFile !== null ? await secretsCipher(secrets) : null;
  const read = async (): Promise<StoredKeys | null> => {
    const [row] = await database.db.select().from(identityKeys).where(eq(identityKeys.id, KEY_SET_ID)).limit(1);
    return row ? { jwks: row.jwks, cookieKeys: row.cookieKeys } : null;
  };
  const existing = await read();
  if (existing) {
    const keys = openKeys(existing, cipher);
    const plain = typeof existing.jwks !== 'string' || typeof existing.cookieKeys !== 'string';
    if (cipher !== null && plain) {
      await database.db.update(identityKeys).set(sealKeys(keys, cipher)).where(eq(identityKeys.id, KEY_SET_ID));
    }
    return keys;
  }
  const fresh = await generateKeys();
  await database.db
    .insert(identityKeys)
    .values({ id: KEY_SET_ID, ...sealKeys(fresh, cipher) })
    .onConflictDoNothing();
  const stored = await read();
  if (!stored) throw new Error('the issuer keys could not be stored');
  return openKeys(stored, cipher);
}

/** The public half of the signing keys, as the JWKS endpoint publishes them. */
export function publicJwks(keys: IssuerKeys): JWK[] {
  return keys.jwks.map(({ kty, n, e, crv, x, y, kid, alg, use }) => ({ kty, n, e, crv, x, y, kid, alg, use }));
}
