import { createHmac, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs/promises';
import { MEDIA_SIGNED_URL_TTL_SECONDS } from '@parley/shared';
import { decodeSecretsKey, type SecretsConfig } from '../config.js';
import { secretsCipher } from '../secrets/keyring.js';
import { signedMediaPath } from './urls.js';

export type SignatureCheck = 'valid' | 'expired' | 'invalid';

/**
 * Expiring signed URLs of media files for carriers, which fetch MMS media without our tokens:
 * `{PUBLIC_URL}/v1/media/{fileId}?expires={unix seconds}&signature={base64url HMAC-SHA256}`. The HMAC covers
 * the file id and the expiry, so neither can be changed; a URL stops working when it expires.
 */
export class MediaUrlSigner {
  constructor(
    readonly publicUrl: string,
    private readonly key: Buffer,
  ) {}

  private mac(fileId: string, expires: number): Buffer {
    return createHmac('sha256', this.key).update(`media:${fileId.toLowerCase()}:${String(expires)}`).digest();
  }

  signedUrl(fileId: string, now: Date = new Date(), ttlSeconds: number = MEDIA_SIGNED_URL_TTL_SECONDS): string {
    const expires = Math.floor(now.getTime() / 1000) + ttlSeconds;
    const signature = this.mac(fileId, expires).toString('base64url');
    return `${this.publicUrl}${signedMediaPath(fileId)}?expires=${String(expires)}&signature=${signature}`;
  }

  check(fileId: string, expires: number | undefined, signature: string | undefined, now: Date = new Date()): SignatureCheck {
    if (expires === undefined || signature === undefined || !Number.isSafeInteger(expires)) return 'invalid';
    const given = Buffer.from(signature, 'base64url');
    const expected = this.mac(fileId, expires);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
    return expires * 1000 < now.getTime() ? 'expired' : 'valid';
  }
}

/** A key for this one purpose, so a signed URL says nothing about the key that encrypts carrier secrets. */
export const deriveMediaSigningKey = (secretsKey: Buffer): Buffer => createHmac('sha256', secretsKey).update('parley media url signing v1').digest();

/**
 * The signing key comes from the secrets key (SECRETS_KEY, or on the embedded database DATA_DIR/secrets.key),
 * so every process of a deployment signs and checks alike without another setting. `create` makes the key
 * file on the embedded database when there is none yet (signing); checking never does: without a key no URL
 * can have been signed. Null on PostgreSQL without SECRETS_KEY.
 */
export async function mediaSigningKey(secrets: SecretsConfig, create: boolean): Promise<Buffer | null> {
  if (secrets.key !== null) return deriveMediaSigningKey(secrets.key);
  const file = secrets.keyFile;
  if (file === null) return null;
  // The keyring makes the file exactly as it does for carrier secrets (mode 0600, never overwritten).
  if (create) await secretsCipher(secrets);
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const key = decodeSecretsKey(text.trim());
  return key === null ? null : deriveMediaSigningKey(key);
}
