import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import webpush from 'web-push';
import type { SecretsConfig } from '../../platform/config.js';
import type { Database, Queryable } from '../../platform/db/client.js';
import { webPushKeys } from '../../platform/db/schema/index.js';
import { SecretDecryptionError, type SecretCipher } from '../../platform/secrets/cipher.js';
import { canStoreSecrets, existingSecretsCipher, secretsCipher } from '../../platform/secrets/keyring.js';

/** The deployment's VAPID key pair (RFC 8292), both halves base64url as web-push writes them. */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

const KEY_ROW_ID = 1;
// Bound to the row as additional data: the ciphertext decrypts here and nowhere else.
const SECRET_CONTEXT = 'web_push_keys:1';

/** The public half of a private P-256 key, base64url (a check that a stored pair belongs together). */
export function publicKeyOf(privateKey: string): string {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.setPrivateKey(Buffer.from(privateKey, 'base64url'));
  return ecdh.getPublicKey().toString('base64url');
}

async function readKeys(q: Queryable, cipher: SecretCipher): Promise<VapidKeys | null> {
  const [row] = await q.select().from(webPushKeys).where(eq(webPushKeys.id, KEY_ROW_ID));
  if (!row) return null;
  const privateKey = cipher.decrypt(row.privateKeyEncrypted, SECRET_CONTEXT);
  if (publicKeyOf(privateKey) !== row.publicKey) {
    throw new SecretDecryptionError('web_push_keys holds a private key that does not belong to its public key');
  }
  return { publicKey: row.publicKey, privateKey };
}

/**
 * The key pair, made on the first call ever and read after. Two processes starting at once both try the
 * insert; one wins, and both then read the winner's pair, so every process signs with the same key.
 */
export async function loadOrCreateVapidKeys(q: Queryable, cipher: SecretCipher): Promise<VapidKeys> {
  const existing = await readKeys(q, cipher);
  if (existing) return existing;
  const made = webpush.generateVAPIDKeys();
  await q
    .insert(webPushKeys)
    .values({ id: KEY_ROW_ID, publicKey: made.publicKey, privateKeyEncrypted: cipher.encrypt(made.privateKey, SECRET_CONTEXT) })
    .onConflictDoNothing();
  const stored = await readKeys(q, cipher);
  if (!stored) throw new Error('the web push key pair was not stored');
  return stored;
}

/** Keys found, or 'off' for good in this process: both are kept; "none made yet" is not. */
const known = new WeakMap<Database, VapidKeys | 'off'>();

/**
 * The deployment's keys, or null when there are none. `create` (the web app asking for the key a
 * browser subscribes with) makes the pair, and on the embedded database the secrets key file, the first
 * time; without it (the outbox's pushes) nothing is written: no key, no subscription either.
 * Web push is off, logged once, on PostgreSQL without SECRETS_KEY (the private key is never stored in
 * clear) and when the stored key cannot be read with this SECRETS_KEY; the rest of the product runs on.
 */
export async function vapidKeysFor(
  database: Database,
  secrets: SecretsConfig,
  log: Logger,
  options: { create: boolean },
): Promise<VapidKeys | null> {
  const state = known.get(database);
  if (state !== undefined) return state === 'off' ? null : state;
  const found = await findKeys(database, secretsOf(database, secrets), log, options.create);
  if (found !== null) known.set(database, found);
  return found === 'off' ? null : found;
}

const memoryKeys = new WeakMap<Database, Buffer>();

/**
 * The embedded default keeps the secrets key in a file beside the database; an in-memory database (tests)
 * has no data directory, and its keys live no longer than it does: they are encrypted with a key that
 * lives as long, and no file is written.
 */
function secretsOf(database: Database, secrets: SecretsConfig): SecretsConfig {
  if (secrets.key !== null || secrets.keyFile === null || database.kind !== 'pglite' || database.dataDir !== null) return secrets;
  let key = memoryKeys.get(database);
  if (!key) {
    key = crypto.randomBytes(32);
    memoryKeys.set(database, key);
  }
  return { key, keyFile: null };
}

/** Whether this deployment can push at all (PostgreSQL needs SECRETS_KEY), without touching any file. */
export const webPushPossible = (secrets: SecretsConfig): boolean => canStoreSecrets(secrets);

async function findKeys(database: Database, secrets: SecretsConfig, log: Logger, create: boolean): Promise<VapidKeys | 'off' | null> {
  if (!webPushPossible(secrets)) {
    log.warn('web push is off: set SECRETS_KEY on every process so the VAPID private key can be stored encrypted');
    return 'off';
  }
  try {
    const cipher = create ? await secretsCipher(secrets) : await existingSecretsCipher(secrets);
    if (cipher === null) return null;
    return create ? await loadOrCreateVapidKeys(database.db, cipher) : await readKeys(database.db, cipher);
  } catch (error) {
    if (!(error instanceof SecretDecryptionError)) throw error;
    log.error(
      { err: error },
      'web push is off: the stored VAPID key cannot be read (restore SECRETS_KEY, or delete the web_push_keys row so a new pair is made; browsers then subscribe again) and restart',
    );
    return 'off';
  }
}
