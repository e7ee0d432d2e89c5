import crypto from 'node:crypto';
import type { SecretsConfig } from '../../../platform/config.js';
import { purposeKey } from '../../../platform/secrets/keyring.js';
import { sameSecretText } from '../../../platform/secrets/sameSecretText.js';

/** Slack refuses a request whose timestamp is more than 5 minutes off; so do we (replays). */
export const SLACK_MAX_AGE_SECONDS = 5 * 60;

/** Slack's request signature: `v0=` and the hex HMAC-SHA256 of `v0:{timestamp}:{raw body}` with the app's signing secret. */
export const slackSignature = (signingSecret: string, timestamp: string, body: string): string =>
  `v0=${crypto.createHmac('sha256', signingSecret).update(`v0:${timestamp}:${body}`).digest('hex')}`;

/** Whether a request carries Slack's signature over its raw body, made within the last 5 minutes. */
export function verifySlackRequest(input: { signingSecret: string; signature: string | undefined; timestamp: string | undefined; body: string; nowSeconds: number }): boolean {
  const { signature, timestamp } = input;
  if (signature === undefined || timestamp === undefined || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(input.nowSeconds - Number(timestamp)) > SLACK_MAX_AGE_SECONDS) return false;
  return sameSecretText(signature, slackSignature(input.signingSecret, timestamp, input.body));
}

const STATE_PURPOSE = 'parley slack oauth state v1';
const STATE_TTL_MS = 15 * 60_000;

/**
 * The OAuth `state` of an "Add to Slack": the account and user it was asked for and until when, signed with
 * a key derived from the secrets key, so the callback stores the token for exactly that user and no other.
 */
export async function signSlackState(secrets: SecretsConfig, accountId: string, userId: string, now = Date.now()): Promise<string> {
  const key = await purposeKey(secrets, STATE_PURPOSE, true);
  if (key === null) throw new Error('no secrets key to sign the Slack state with');
  const payload = Buffer.from(JSON.stringify({ a: accountId, u: userId, x: now + STATE_TTL_MS })).toString('base64url');
  return `${payload}.${crypto.createHmac('sha256', key).update(payload).digest('base64url')}`;
}

/** The account and user a state names, or null when it is forged, changed or expired. */
export async function openSlackState(secrets: SecretsConfig, state: string, now = Date.now()): Promise<{ accountId: string; userId: string } | null> {
  const [payload, mac] = state.split('.');
  if (payload === undefined || mac === undefined) return null;
  const key = await purposeKey(secrets, STATE_PURPOSE, false);
  if (key === null || !sameSecretText(mac, crypto.createHmac('sha256', key).update(payload).digest('base64url'))) return null;
  try {
    const parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { a?: unknown; u?: unknown; x?: unknown };
    if (typeof parsed.a !== 'string' || typeof parsed.u !== 'string' || typeof parsed.x !== 'number' || parsed.x < now) return null;
    return { accountId: parsed.a, userId: parsed.u };
  } catch {
    return null;
  }
}
