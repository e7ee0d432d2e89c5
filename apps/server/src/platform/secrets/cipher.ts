import crypto from 'node:crypto';

/**
 * Secrets at rest (carrier passwords and tokens): AES-256-GCM with a random 12-byte IV per secret. The text
 * form is `v1.<key id>.<base64url(iv | tag | ciphertext)>`: the version lets the format change later, the key
 * id (a fingerprint of the key, not the key) tells a ciphertext of another key from an altered one.
 * An optional context (e.g. the row's id) is bound as additional data, so a ciphertext copied to another
 * row does not decrypt there.
 */

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretDecryptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretDecryptionError';
  }
}

/** A short public fingerprint of a key: 8 hex digits of SHA-256 over a label and the key. */
export function secretsKeyId(key: Buffer): string {
  return crypto.createHash('sha256').update('parley-secrets-key:').update(key).digest('hex').slice(0, 8);
}

export class SecretCipher {
  readonly keyId: string;

  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('An AES-256-GCM key is 32 bytes');
    this.keyId = secretsKeyId(key);
  }

  encrypt(plaintext: string, context = ''): string {
    const iv = crypto.randomBytes(IV_BYTES);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const sealed = Buffer.concat([iv, cipher.getAuthTag(), ciphertext]);
    return `${VERSION}.${this.keyId}.${sealed.toString('base64url')}`;
  }

  /** The plaintext; throws SecretDecryptionError for another key, an altered text or another context. */
  decrypt(text: string, context = ''): string {
    const parts = text.split('.');
    const [version, keyId, payload] = parts;
    if (parts.length !== 3 || version !== VERSION || keyId === undefined || payload === undefined || !/^[A-Za-z0-9_-]+$/.test(payload)) {
      throw new SecretDecryptionError('The stored secret is not in a format this version of Parley reads');
    }
    if (keyId !== this.keyId) {
      throw new SecretDecryptionError(
        `The stored secret was encrypted with another key (key id ${keyId}, the current key is ${this.keyId}): was SECRETS_KEY changed? Restore that key or enter the secret again`,
      );
    }
    const sealed = Buffer.from(payload, 'base64url');
    if (sealed.length < IV_BYTES + TAG_BYTES) throw new SecretDecryptionError('The stored secret is truncated');
    const decipher = crypto.createDecipheriv('aes-256-gcm', this.key, sealed.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretDecryptionError('The stored secret fails its integrity check: it was altered or belongs to another record');
    }
  }
}
