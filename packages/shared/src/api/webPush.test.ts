import { describe, expect, it } from 'vitest';
import {
  isPushEndpoint,
  registerWebPushSchema,
  unregisterWebPushSchema,
  WEB_PUSH_AUTH_MESSAGE,
  WEB_PUSH_ENDPOINT_MESSAGE,
  WEB_PUSH_P256DH_MESSAGE,
  webPushBody,
} from './webPush.js';

// A real browser key (65 bytes, 0x04 first) and auth secret (16 bytes), base64url without padding.
const p256dh = 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM';
const auth = 'tBHItJI5svbpez7KI4CCXg';
const endpoint = 'https://fcm.googleapis.com/fcm/send/abc:def';

const issues = (input: unknown): string[] => {
  const parsed = registerWebPushSchema.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('the web push contract', () => {
  it('takes a browser subscription as PushSubscription.toJSON() writes it', () => {
    expect(registerWebPushSchema.parse({ type: 'webpush', subscription: { endpoint, expirationTime: null, keys: { p256dh, auth } } })).toEqual({
      type: 'webpush',
      subscription: { endpoint, expirationTime: null, keys: { p256dh, auth } },
    });
  });

  it('keeps keys in base64url without padding, whichever alphabet they came in', () => {
    const standard = `${p256dh.replaceAll('-', '+').replaceAll('_', '/')}=`;
    const parsed = registerWebPushSchema.parse({ type: 'webpush', subscription: { endpoint, keys: { p256dh: standard, auth: `${auth}==` } } });
    expect(parsed.subscription.keys).toEqual({ p256dh, auth });
  });

  it('refuses what is not a subscription, naming the field', () => {
    expect(issues({ subscription: { endpoint, keys: { p256dh, auth } } })).toEqual(['type: Must be webpush']);
    expect(issues({ type: 'fcm', subscription: { endpoint, keys: { p256dh, auth } } })).toEqual(['type: Must be webpush']);
    expect(issues({ type: 'webpush' })).toEqual(['subscription: Required']);
    expect(issues({ type: 'webpush', subscription: { endpoint: '', keys: { p256dh, auth } } })).toEqual(['subscription.endpoint: Required']);
    expect(issues({ type: 'webpush', subscription: { endpoint, keys: { p256dh: p256dh.slice(1), auth } } })).toEqual([
      `subscription.keys.p256dh: ${WEB_PUSH_P256DH_MESSAGE}`,
    ]);
    expect(issues({ type: 'webpush', subscription: { endpoint, keys: { p256dh: `A${p256dh.slice(1)}`, auth } } })).toEqual([
      `subscription.keys.p256dh: ${WEB_PUSH_P256DH_MESSAGE}`,
    ]);
    expect(issues({ type: 'webpush', subscription: { endpoint, keys: { p256dh, auth: 'short' } } })).toEqual([`subscription.keys.auth: ${WEB_PUSH_AUTH_MESSAGE}`]);
    expect(issues({ type: 'webpush', subscription: { endpoint } })).toEqual(['subscription.keys: Required']);
    expect(issues({ type: 'webpush', subscription: { endpoint, expirationTime: 'soon', keys: { p256dh, auth } } })).toEqual([
      'subscription.expirationTime: Must be a number',
    ]);
    expect(issues({ type: 'webpush', subscription: { endpoint: `https://push.example/${'a'.repeat(2048)}`, keys: { p256dh, auth } } })).toEqual([
      'subscription.endpoint: At most 2048 characters',
    ]);
  });

  it('takes https push services, and plain http only on this machine', () => {
    expect(isPushEndpoint('https://updates.push.services.mozilla.com/wpush/v2/gAAAA')).toBe(true);
    expect(isPushEndpoint('http://127.0.0.1:4567/push/1')).toBe(true);
    expect(isPushEndpoint('http://localhost/push')).toBe(true);
    expect(isPushEndpoint('http://[::1]:80/push')).toBe(true);
    for (const bad of ['http://push.example.com/1', 'ftp://push.example.com/1', 'not a url', 'https://user:pw@push.example.com/1', 'javascript:alert(1)']) {
      expect(isPushEndpoint(bad), bad).toBe(false);
      expect(issues({ type: 'webpush', subscription: { endpoint: bad, keys: { p256dh, auth } } }), bad).toEqual([
        `subscription.endpoint: ${WEB_PUSH_ENDPOINT_MESSAGE}`,
      ]);
    }
  });

  it('unregisters by endpoint', () => {
    expect(unregisterWebPushSchema.parse({ endpoint: ` ${endpoint} ` })).toEqual({ endpoint });
    expect(unregisterWebPushSchema.safeParse({}).success).toBe(false);
  });

  it('cuts the notification text at 120 characters, by code points, and names media-only messages', () => {
    expect(webPushBody('  Hello there  ', 0)).toBe('Hello there');
    expect(webPushBody('x'.repeat(120), 0)).toBe('x'.repeat(120));
    expect(webPushBody('x'.repeat(121), 0)).toBe(`${'x'.repeat(120)}…`);
    expect(webPushBody(`${'x'.repeat(119)}😀😀`, 0)).toBe(`${'x'.repeat(119)}😀…`);
    expect(webPushBody('', 2)).toBe('Picture');
    expect(webPushBody('See this', 1)).toBe('See this');
    expect(webPushBody(' ', 0)).toBe('');
  });
});
