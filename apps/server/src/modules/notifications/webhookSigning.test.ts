import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { newWebhookSecret } from './webhookSecret.js';
import { signWebhook } from './webhookSigning.js';

describe('webhook signatures', () => {
  const body = JSON.stringify({ type: 'message-received', timestamp: '2026-12-02T10:00:00.000Z', data: { message: { id: 'm1' } } });

  it('are verified by the Standard Webhooks library as a receiver verifies them', () => {
    const secret = newWebhookSecret();
    const headers = signWebhook([secret], 'evt_41', new Date(), body);
    expect(headers['webhook-id']).toBe('evt_41');
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  it('are refused for a changed body, another secret, another id or an old timestamp', () => {
    const secret = newWebhookSecret();
    const headers = { ...signWebhook([secret], 'evt_41', new Date(), body) };
    const receiver = new Webhook(secret);
    expect(() => receiver.verify(body.replace('m1', 'm2'), headers)).toThrow();
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
    expect(() => receiver.verify(body, { ...headers, 'webhook-id': 'evt_42' })).toThrow();
    const old = { ...signWebhook([secret], 'evt_41', new Date(Date.now() - 10 * 60_000), body) };
    expect(() => receiver.verify(body, old)).toThrow(/timestamp/i);
  });

  it('carry one signature per secret during a rotation, so a receiver holding either accepts', () => {
    const current = newWebhookSecret();
    const previous = newWebhookSecret();
    const headers = { ...signWebhook([current, previous], 'evt_7', new Date(), body) };
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => new Webhook(current).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(previous).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
  });
});
