import crypto from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from './webhookSecret.js';

/** The headers of a signed webhook request (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature). */
export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

const keyOf = (secret: string): Buffer => Buffer.from(secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret, 'base64');

/**
 * Signs a body as Standard Webhooks does: HMAC-SHA256 over `{id}.{timestamp}.{body}` with the secret's key,
 * base64, as `v1,{signature}`; one per secret, space-separated, so a receiver that still holds a rotated-out
 * secret accepts the request during the overlap (docs/notifications.md, "Signatures").
 */
export function signWebhook(secrets: readonly string[], eventId: string, at: Date, body: string): SignedHeaders {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const signed = `${eventId}.${timestamp}.${body}`;
  const signatures = secrets.map((secret) => `v1,${crypto.createHmac('sha256', keyOf(secret)).update(signed).digest('base64')}`);
  return { 'webhook-id': eventId, 'webhook-timestamp': timestamp, 'webhook-signature': signatures.join(' ') };
}
