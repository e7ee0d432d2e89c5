import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifySignature } from './signature.js';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const key = Buffer.alloc(24, 3);
const secret = `whsec_${key.toString('base64')}`;
const now = Date.UTC(2026, 0, 2, 3, 4, 5);
const timestamp = String(now / 1000);
const body = '{"type":"messageReceived"}';
const signature = crypto.createHmac('sha256', key).update(`msg_1.${timestamp}.${body}`).digest('base64');
const headers = (signatures: string, at = timestamp) => ({ 'webhook-id': 'msg_1', 'webhook-timestamp': at, 'webhook-signature': signatures });

describe('verifySignature', () => {
  it("accepts Parley's signature, among others and under Zapier's header names", () => {
    expect(verifySignature(secret, headers(`v1,${signature}`), body, now)).toBe(true);
    expect(verifySignature(secret, headers(`v1,${'A'.repeat(43)}= v1,${signature}`), body, now)).toBe(true);
    const zapier = { 'Http-Webhook-Id': 'msg_1', 'Http-Webhook-Timestamp': timestamp, 'Http-Webhook-Signature': `v1,${signature}` };
    expect(verifySignature(secret, zapier, body, now)).toBe(true);
  });

  it('refuses another body, secret, version or an old timestamp', () => {
    expect(verifySignature(secret, headers(`v1,${signature}`), `${body} `, now)).toBe(false);
    expect(verifySignature(`whsec_${Buffer.alloc(24, 4).toString('base64')}`, headers(`v1,${signature}`), body, now)).toBe(false);
    expect(verifySignature(secret, headers(`v2,${signature}`), body, now)).toBe(false);
    expect(verifySignature(secret, headers(`v1,${signature}`), body, now + 301_000)).toBe(false);
    expect(verifySignature(secret, { 'webhook-id': 'msg_1', 'webhook-timestamp': timestamp }, body, now)).toBe(false);
  });

  it('refuses other texts that decode to the same signature', () => {
    // 32 bytes are 43 characters and one "="; the 43rd character's two low bits are spare.
    const last = BASE64.indexOf(signature.charAt(42));
    const spare = `${signature.slice(0, 42)}${BASE64.charAt(last ^ 1)}=`;
    expect(Buffer.from(spare, 'base64')).toEqual(Buffer.from(signature, 'base64'));
    for (const other of [spare, signature.replace(/=$/, ''), `${signature}!`, ` ${signature}`]) {
      expect(verifySignature(secret, headers(`v1,${other}`), body, now), other).toBe(false);
    }
  });
});
