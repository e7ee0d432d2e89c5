import crypto from 'node:crypto';

/** How far a delivery's timestamp may be from now, as Standard Webhooks receivers allow. */
const TOLERANCE_SECONDS = 5 * 60;

/**
 * A header of a caught request whatever its spelling: Zapier hands hook headers on as `Http-Webhook-Id`,
 * a plain server as `webhook-id`.
 */
export function headerOf(headers: Record<string, string>, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) {
    const plain = key.toLowerCase().replace(/^http[-_]/, '').replace(/_/g, '-');
    if (plain === name) return value;
  }
  return undefined;
}

/**
 * Whether a delivery is Parley's (docs/notifications.md, "Signatures"): one of the `v1,` signatures in
 * `webhook-signature` is the HMAC-SHA256 of `{id}.{timestamp}.{body}` with the subscription's secret, and the
 * timestamp is within five minutes of `now`.
 */
export function verifySignature(secret: string, headers: Record<string, string>, body: string, now = Date.now()): boolean {
  const id = headerOf(headers, 'webhook-id');
  const timestamp = headerOf(headers, 'webhook-timestamp');
  const signatures = headerOf(headers, 'webhook-signature');
  if (id === undefined || timestamp === undefined || signatures === undefined || !/^\d+$/.test(timestamp)) return false;
  if (Math.abs(now / 1000 - Number(timestamp)) > TOLERANCE_SECONDS) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  // The text as signed, not its decoded bytes: a decoder ignores the last character's spare bits and any
  // character outside the alphabet, so other texts would pass for the signature.
  const expected = Buffer.from(crypto.createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64'));
  return signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    if (version !== 'v1' || signature === undefined) return false;
    const given = Buffer.from(signature);
    return given.length === expected.length && crypto.timingSafeEqual(given, expected);
  });
}
