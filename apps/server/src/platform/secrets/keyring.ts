import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { decodeSecretsKey, type SecretsConfig } from '../config.js';
import { AppError } from '../errors.js';
import { SecretCipher } from './cipher.js';

/** Why secrets cannot be stored: PostgreSQL without SECRETS_KEY. */
export const SECRETS_KEY_MISSING_MESSAGE =
  "Carrier connections of an account need SECRETS_KEY: set it on every process of this deployment (32 random bytes, e.g. `openssl rand -base64 32`) to store their secrets encrypted";

export class SecretsKeyMissingError extends Error {
  constructor() {
    super(SECRETS_KEY_MISSING_MESSAGE);
    this.name = 'SecretsKeyMissingError';
  }
}

const ciphers = new Map<string, Promise<SecretCipher>>();
/** Purpose keys derived from a key file, by file and purpose: the file never changes under a running process. */
const purposeKeys = new Map<string, Buffer>();

/**
 * The cipher of the configured key: SECRETS_KEY, or on the embedded database the key file, generated on
 * first use (mode 0600) and read after. Throws SecretsKeyMissingError when neither is configured.
 */
export function secretsCipher(secrets: SecretsConfig): Promise<SecretCipher> {
  if (secrets.key !== null) return Promise.resolve(new SecretCipher(secrets.key));
  const file = secrets.keyFile;
  if (file === null) return Promise.reject(new SecretsKeyMissingError());
  let pending = ciphers.get(file);
  if (!pending) {
    pending = keyFromFile(file).then((key) => new SecretCipher(key));
    // A failure (an unreadable file) is not kept: the next use tries again after the operator fixed it.
    pending.catch(() => ciphers.delete(file));
    ciphers.set(file, pending);
  }
  return pending;
}

/**
 * The cipher to store a secret with, or a 409 that names SECRETS_KEY and what needs it (PostgreSQL without
 * it): for the commands that keep secrets (carrier connections, webhook signing secrets).
 */
export async function storingCipher(secrets: SecretsConfig, missingMessage = SECRETS_KEY_MISSING_MESSAGE): Promise<SecretCipher> {
  try {
    return await secretsCipher(secrets);
  } catch (error) {
    if (error instanceof SecretsKeyMissingError) throw new AppError(409, 'conflict', missingMessage);
    throw error;
  }
}

/**
 * The cipher when a key exists, null otherwise: never creates the key file. For readers (webhooks, adapters):
 * without a key no secret can have been stored.
 */
export async function existingSecretsCipher(secrets: SecretsConfig): Promise<SecretCipher | null> {
  if (secrets.key !== null || secrets.keyFile === null) return secrets.key === null ? null : new SecretCipher(secrets.key);
  const file = secrets.keyFile;
  if (!ciphers.has(file) && (await readKeyFile(file)) === null) return null;
  return secretsCipher(secrets);
}

/**
 * A key for one purpose (`purpose` is its label, e.g. 'parley media url signing v1'), derived from the
 * secrets key so that what it signs says nothing about the key that encrypts carrier secrets. `create` makes
 * the embedded database's key file when there is none yet (signing); checking never does: without a key
 * nothing can have been signed. Null without a secrets key (PostgreSQL without SECRETS_KEY).
 */
export async function purposeKey(secrets: SecretsConfig, purpose: string, create: boolean): Promise<Buffer | null> {
  const derive = (base: Buffer): Buffer => crypto.createHmac('sha256', base).update(purpose).digest();
  if (secrets.key !== null) return derive(secrets.key);
  const file = secrets.keyFile;
  if (file === null) return null;
  const cacheKey = `${file}\n${purpose}`;
  const known = purposeKeys.get(cacheKey);
  if (known !== undefined) return known;
  // The keyring makes the file exactly as it does for carrier secrets (mode 0600, never overwritten).
  if (create) await secretsCipher(secrets);
  const base = await readKeyFile(file);
  if (base === null) return null;
  const key = derive(base);
  purposeKeys.set(cacheKey, key);
  return key;
}

/** Whether secrets can be stored under this config (no file is touched). */
export function canStoreSecrets(secrets: SecretsConfig): boolean {
  return secrets.key !== null || secrets.keyFile !== null;
}

async function keyFromFile(file: string): Promise<Buffer> {
  const existing = await readKeyFile(file);
  if (existing !== null) return existing;
  await fs.mkdir(path.dirname(file), { recursive: true });
  const key = crypto.randomBytes(32);
  try {
    // `wx`: never overwrite a key another process or an earlier start just wrote.
    await fs.writeFile(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const written = await readKeyFile(file);
    if (written === null) throw new Error(`${file} disappeared while it was being created`, { cause: error });
    return written;
  }
}

async function readKeyFile(file: string): Promise<Buffer | null> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const key = decodeSecretsKey(text.trim());
  if (key === null) {
    throw new Error(`${file} does not hold a secrets key (32 bytes as base64 or hex): restore it from a backup, or set SECRETS_KEY`);
  }
  return key;
}
