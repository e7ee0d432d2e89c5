import { describe, expect, it } from 'vitest';
import { clickTarget, isNavigateMessage, NOTIFICATION_ICON, notificationFromPush, pickWindow } from './webPushNotification';

const origin = 'https://sms.example.com';
const conversationId = '0190f4c2-7b1e-7c3a-9d2e-6f1a2b3c4d5e';

describe("the service worker's notification", () => {
  it('shows the push: title, body, the app icon, the conversation as tag, its page as data', () => {
    expect(
      notificationFromPush({ title: 'Ada Lovelace', body: 'Is the shop open?', url: `/conversations/${conversationId}`, tag: conversationId }),
    ).toEqual({
      title: 'Ada Lovelace',
      options: {
        body: 'Is the shop open?',
        icon: NOTIFICATION_ICON,
        badge: NOTIFICATION_ICON,
        tag: conversationId,
        renotify: true,
        data: { url: `/conversations/${conversationId}` },
      },
    });
  });

  it('falls back to plain defaults for a push it cannot read, and never leads off the app', () => {
    expect(notificationFromPush(null)).toEqual({
      title: 'New message',
      options: { body: '', icon: NOTIFICATION_ICON, badge: NOTIFICATION_ICON, data: { url: '/conversations' } },
    });
    for (const url of ['https://evil.example/phish', '//evil.example/x', 'javascript:alert(1)', '/\\evil.example', 42]) {
      expect(notificationFromPush({ title: 'x', url }).options.data.url, String(url)).toBe('/conversations');
    }
  });

  it('opens the page of the notification on this origin', () => {
    expect(clickTarget({ url: `/conversations/${conversationId}` }, origin)).toBe(`${origin}/conversations/${conversationId}`);
    expect(clickTarget(undefined, origin)).toBe(`${origin}/conversations`);
    expect(clickTarget({ url: 'https://evil.example/' }, origin)).toBe(`${origin}/conversations`);
    // Paths that read as another host once resolved (or once the window is sent the path) lead home too.
    for (const url of ['//evil.example/', '/\\evil.example', '/.//evil.example/x', '/\t/evil.example', 'javascript:alert(1)']) {
      expect(clickTarget({ url }, origin), url).toBe(`${origin}/conversations`);
      expect(notificationFromPush({ url }).options.data.url, url).toBe('/conversations');
    }
  });

  it("takes the app's focused window, else its first one, never another site's", () => {
    const a = { url: `${origin}/contacts`, focused: false };
    const b = { url: `${origin}/campaigns`, focused: true };
    const foreign = { url: 'https://other.example/', focused: true };
    expect(pickWindow([a, b, foreign], origin)).toBe(b);
    expect(pickWindow([foreign, a], origin)).toBe(a);
    expect(pickWindow([foreign], origin)).toBeNull();
    expect(pickWindow([], origin)).toBeNull();
  });

  it('knows its navigate message', () => {
    expect(isNavigateMessage({ type: 'parley:navigate', url: '/conversations/1' })).toBe(true);
    expect(isNavigateMessage({ type: 'other', url: '/x' })).toBe(false);
    expect(isNavigateMessage('parley:navigate')).toBe(false);
  });
});
