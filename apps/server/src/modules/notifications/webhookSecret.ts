import crypto from 'node:crypto';
import type { SecretsConfig } from '../../platform/config.js';
import { storingCipher } from '../../platform/secrets/keyring.js';
import type { SecretCipher } from '../../platform/secrets/cipher.js';

/** Standard Webhooks' secret form: `whsec_` and the base64 of the key (24 to 64 bytes; we make 32). */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;

export const WEBHOOKS_NEED_SECRETS_KEY_MESSAGE =
  'Webhooks need SECRETS_KEY to keep their signing secrets: set it on every process of this deployment (32 random bytes, e.g. `openssl rand -base64 32`)';

export function newWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${crypto.randomBytes(SECRET_BYTES).toString('base64')}`;
}

/** The cipher webhook secrets are kept with, or a 409 naming SECRETS_KEY (PostgreSQL without it). */
export function webhookSecretCipher(secrets: SecretsConfig): Promise<SecretCipher> {
  return storingCipher(secrets, WEBHOOKS_NEED_SECRETS_KEY_MESSAGE);
}

/** A secret as it is stored: encrypted and bound to its notification, so a copied ciphertext does not open elsewhere. */
export const sealWebhookSecret = (cipher: SecretCipher, notificationId: string, secret: string): string =>
  cipher.encrypt(secret, `notification:${notificationId}`);

export const openWebhookSecret = (cipher: SecretCipher, notificationId: string, sealed: string): string =>
  cipher.decrypt(sealed, `notification:${notificationId}`);
