import { registerWebPushSchema } from '@parley/shared';
import { describe, expect, it } from 'vitest';
import { madeWithKey, registrationOf, urlBase64ToUint8Array } from './webPush';

// A VAPID public key as the server hands it out: 65 bytes, base64url without padding.
const publicKey = 'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U';

describe('web push in the page', () => {
  it('turns the base64url key into the bytes PushManager.subscribe wants', () => {
    const bytes = urlBase64ToUint8Array(publicKey);
    expect(bytes).toHaveLength(65);
    expect(bytes[0]).toBe(4);
    expect(Buffer.from(bytes).toString('base64url')).toBe(publicKey);
    // Padding, and the characters base64url changes (- and _), decode too.
    expect([...urlBase64ToUint8Array('-_8')]).toEqual([0xfb, 0xff]);
    expect([...urlBase64ToUint8Array('-_8=')]).toEqual([0xfb, 0xff]);
    expect([...urlBase64ToUint8Array('AQ')]).toEqual([1]);
  });

  it("tells whether a browser's subscription was made with the server's current key", () => {
    const same = urlBase64ToUint8Array(publicKey).buffer;
    const other = urlBase64ToUint8Array(publicKey).slice();
    other[64] = (other[64] ?? 0) ^ 1;
    expect(madeWithKey(same, publicKey)).toBe(true);
    expect(madeWithKey(other.buffer, publicKey)).toBe(false);
    expect(madeWithKey(new ArrayBuffer(0), publicKey)).toBe(false);
    expect(madeWithKey(null, publicKey)).toBe(false);
  });

  it('registers what PushSubscription.toJSON() gives, in the shape the server takes', () => {
    const json = {
      endpoint: 'https://fcm.googleapis.com/fcm/send/abc:def',
      expirationTime: null,
      keys: { p256dh: publicKey, auth: 'tBHItJI5svbpez7KI4CCXg' },
    };
    const body = registrationOf(json);
    expect(body).toEqual({ type: 'webpush', subscription: json });
    expect(registerWebPushSchema.safeParse(body).success).toBe(true);
    // A subscription without keys (no payload support) is sent as it is and refused by the server's check.
    expect(registerWebPushSchema.safeParse(registrationOf({ endpoint: json.endpoint })).success).toBe(false);
  });
});
