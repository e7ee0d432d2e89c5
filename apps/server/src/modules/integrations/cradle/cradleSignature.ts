import { createHmac } from 'node:crypto';
import { sameSecretText } from '../../../platform/secrets/sameSecretText.js';

/*
 * Cradle's webhook signature as Parley asks for it when it registers the webhook (docs/integrations.md,
 * "Cradle"): the `X-Cradle-Signature` header is `sha256=` and the hex HMAC-SHA256 of the raw body, keyed with
 * the connection's own secret.
 */

export const cradleSignature = (secret: string, rawBody: Buffer): string => `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;

/** True only for the body exactly as signed with this secret; a missing or other header is false. */
export function cradleSignatureOk(secret: string, rawBody: Buffer, header: string | string[] | undefined): boolean {
  const given = Array.isArray(header) ? header[0] : header;
  if (given === undefined || given.trim() === '' || secret === '') return false;
  return sameSecretText(given.trim().toLowerCase(), cradleSignature(secret, rawBody));
}
