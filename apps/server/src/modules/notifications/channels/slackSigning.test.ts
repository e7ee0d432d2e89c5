import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openSlackState, signSlackState, slackSignature, verifySlackRequest } from './slackSigning.js';

const secrets = { key: crypto.randomBytes(32), keyFile: null };

describe('Slack request signatures', () => {
  const body = '{"type":"url_verification","challenge":"x"}';
  const now = 1_700_000_000;
  const signed = (timestamp: number) => ({ signingSecret: 's3cret', signature: slackSignature('s3cret', String(timestamp), body), timestamp: String(timestamp), body, nowSeconds: now });

  it('accepts a fresh signature over the raw body and refuses a changed body, another secret, a stale or missing one', () => {
    expect(verifySlackRequest(signed(now))).toBe(true);
    expect(verifySlackRequest({ ...signed(now), body: `${body} ` })).toBe(false);
    expect(verifySlackRequest({ ...signed(now), signingSecret: 'other' })).toBe(false);
    expect(verifySlackRequest(signed(now - 301))).toBe(false);
    expect(verifySlackRequest({ ...signed(now), signature: undefined })).toBe(false);
    expect(verifySlackRequest({ ...signed(now), timestamp: 'soon' })).toBe(false);
  });
});

describe('Slack OAuth state', () => {
  it('opens to the account and user it was made for, and not once changed or expired', async () => {
    const state = await signSlackState(secrets, 'acc-1', 'user-1', 1_000);
    expect(await openSlackState(secrets, state, 2_000)).toEqual({ accountId: 'acc-1', userId: 'user-1' });
    expect(await openSlackState(secrets, state, 1_000 + 16 * 60_000)).toBeNull();
    const [payload, mac] = state.split('.');
    const forged = Buffer.from(JSON.stringify({ a: 'acc-2', u: 'user-1', x: 10 ** 13 })).toString('base64url');
    expect(await openSlackState(secrets, `${forged}.${mac ?? ''}`, 2_000)).toBeNull();
    expect(await openSlackState({ key: crypto.randomBytes(32), keyFile: null }, `${payload ?? ''}.${mac ?? ''}`, 2_000)).toBeNull();
  });
});
