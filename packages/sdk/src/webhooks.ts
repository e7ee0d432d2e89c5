import { Webhook, WebhookVerificationError } from 'standardwebhooks';

export { WebhookVerificationError };

/**
 * The event a Parley webhook delivered, once its signature (Standard Webhooks: `webhook-id`,
 * `webhook-timestamp`, `webhook-signature`) is checked with the endpoint's secret (`whsec_...`). Pass the
 * body exactly as received, before any JSON parsing. Throws WebhookVerificationError when the signature
 * does not match or the timestamp is more than five minutes away.
 */
export function verifyWebhook(secret: string, body: string | Buffer, headers: Record<string, string | string[] | undefined>): unknown {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return new Webhook(secret).verify(body, flat);
}
