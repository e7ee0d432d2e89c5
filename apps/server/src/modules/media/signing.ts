import { createHmac } from 'node:crypto';
import { MEDIA_SIGNED_URL_TTL_SECONDS } from '@parley/shared';
import type { SecretsConfig } from '../../platform/config.js';
import { purposeKey } from '../../platform/secrets/keyring.js';
import { sameSecretText } from '../../platform/secrets/sameSecretText.js';
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
    if (!sameSecretText(signature, this.mac(fileId, expires).toString('base64url'))) return 'invalid';
    return expires * 1000 < now.getTime() ? 'expired' : 'valid';
  }
}

/**
 * The signing key comes from the secrets key (SECRETS_KEY, or on the embedded database DATA_DIR/secrets.key),
 * so every process of a deployment signs and checks alike without another setting. `create` makes the key
 * file on the embedded database when there is none yet (signing); checking never does. Null on PostgreSQL
 * without SECRETS_KEY.
 */
export const mediaSigningKey = (secrets: SecretsConfig, create: boolean): Promise<Buffer | null> =>
  purposeKey(secrets, 'parley media url signing v1', create);
