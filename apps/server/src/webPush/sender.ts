import webpush from 'web-push';
import type { WebPushPayload } from '@parley/shared';
import type { VapidKeys } from './keys.js';
import type { PushTarget } from './subscriptions.js';

/** How long one push may take, connection to answer: a slow push service must not hold the others. */
export const PUSH_TIMEOUT_MS = 5000;
/** A message's notification is worth showing for a day; after that the conversation list tells it. */
const TIME_TO_LIVE_SECONDS = 24 * 60 * 60;

export type PushOutcome =
  | { kind: 'delivered' }
  /** 404 or 410: the browser unsubscribed or the push service dropped it; it never comes back. */
  | { kind: 'gone'; status: number }
  | { kind: 'failed'; status: number | null; reason: string };

export interface PushOptions {
  vapid: VapidKeys;
  /** The VAPID `sub`: how the push service's operator reaches ours (mailto: or https:). */
  subject: string;
  timeoutMs?: number;
}

/**
 * One push (RFC 8030) of an aes128gcm-encrypted payload (RFC 8291) with a VAPID signature (RFC 8292).
 * web-push builds the request; it is sent here with fetch so that it has one deadline for the whole
 * exchange, follows no redirect, and reaches a push service on this machine over plain http (tests).
 * Never throws: every failure is an outcome.
 */
export async function sendPush(target: PushTarget, payload: WebPushPayload, options: PushOptions): Promise<PushOutcome> {
  let details: ReturnType<typeof webpush.generateRequestDetails>;
  try {
    details = webpush.generateRequestDetails(
      { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
      JSON.stringify(payload),
      {
        vapidDetails: { subject: options.subject, publicKey: options.vapid.publicKey, privateKey: options.vapid.privateKey },
        contentEncoding: 'aes128gcm',
        TTL: TIME_TO_LIVE_SECONDS,
        // A person is waiting for this answer, as in any chat.
        urgency: 'high',
        // A newer message of the conversation replaces one the push service still holds (32 base64url characters).
        topic: payload.tag.replaceAll('-', '').slice(0, 32),
      },
    );
  } catch (error) {
    // A stored key the library refuses: the subscription can never work.
    return { kind: 'failed', status: null, reason: error instanceof Error ? error.message : String(error) };
  }
  try {
    const response = await fetch(details.endpoint, {
      method: 'POST',
      headers: requestHeaders(details.headers),
      body: details.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs ?? PUSH_TIMEOUT_MS),
    });
    // Read the answer (small) so the connection is released; push services explain refusals in it.
    const text = (await response.text()).slice(0, 300);
    if (response.status >= 200 && response.status < 300) return { kind: 'delivered' };
    if (response.status === 404 || response.status === 410) return { kind: 'gone', status: response.status };
    return { kind: 'failed', status: response.status, reason: text === '' ? response.statusText : text };
  } catch (error) {
    const reason = error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${String(options.timeoutMs ?? PUSH_TIMEOUT_MS)} ms` : describe(error);
    return { kind: 'failed', status: null, reason };
  }
}

/** web-push's headers as fetch takes them: strings, and no Content-Length (fetch sets it from the body). */
function requestHeaders(headers: Record<string, string | number>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (name.toLowerCase() !== 'content-length') out[name] = String(value);
  return out;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // fetch wraps the network error (ECONNREFUSED, a TLS failure) in its cause.
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}
