import { createHmac } from 'node:crypto';
import { sameSecretText } from '../../../platform/secrets/sameSecretText.js';

/*
 * CallRail signs each webhook with the company's signing key (docs/integrations.md, "CallRail"): the
 * `Signature` header is the base64 HMAC-SHA1 of the raw request body.
 */

export const callRailSignature = (signingKey: string, rawBody: Buffer): string => createHmac('sha1', signingKey).update(rawBody).digest('base64');

/** True only for the body exactly as CallRail signed it with this key; a missing or other header is false. */
export function callRailSignatureOk(signingKey: string, rawBody: Buffer, header: string | string[] | undefined): boolean {
  const given = Array.isArray(header) ? header[0] : header;
  if (given === undefined || given.trim() === '' || signingKey === '') return false;
  return sameSecretText(given.trim(), callRailSignature(signingKey, rawBody));
}
