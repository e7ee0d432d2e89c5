import webpush from 'web-push';
import type { WebPushPayload } from '@parley/shared';
import { GuardedFetchError, type GuardedFetch } from '../../platform/net/guardedFetch.js';
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

/** A push service's answer is a status and a short reason; anything longer is not one. */
const ANSWER_MAX_BYTES = 64 * 1024;

export interface PushOptions {
  /** The guarded fetcher: the endpoint is the browser's to choose, so it is a URL like any other a user names. */
  fetch: GuardedFetch;
  vapid: VapidKeys;
  /** The VAPID `sub`: how the push service's operator reaches ours (mailto: or https:). */
  subject: string;
  timeoutMs?: number;
}

/**
 * One push (RFC 8030) of an aes128gcm-encrypted payload (RFC 8291) with a VAPID signature (RFC 8292).
 * web-push builds the request; it is sent here through the guarded fetcher, so that it has one deadline
 * for the whole exchange, follows no redirect, and reaches only public addresses (a push service on this
 * machine only where the operator allows it: tests, development). Never throws: every failure is an outcome.
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
    const response = await options.fetch(details.endpoint, {
      method: 'POST',
      headers: requestHeaders(details.headers),
      ...(details.body === null ? {} : { body: details.body }),
      maxRedirects: 0,
      maxBytes: ANSWER_MAX_BYTES,
      timeoutMs: options.timeoutMs ?? PUSH_TIMEOUT_MS,
    });
    // Push services explain refusals in the answer.
    const text = response.body.toString('utf8').slice(0, 300);
    if (response.status >= 200 && response.status < 300) return { kind: 'delivered' };
    if (response.status === 404 || response.status === 410) return { kind: 'gone', status: response.status };
    return { kind: 'failed', status: response.status, reason: text === '' ? `HTTP ${String(response.status)}` : text };
  } catch (error) {
    const reason =
      error instanceof GuardedFetchError && error.kind === 'timeout' ? `no answer within ${String(options.timeoutMs ?? PUSH_TIMEOUT_MS)} ms` : describe(error);
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
