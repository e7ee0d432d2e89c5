import { clickTarget, NAVIGATE_MESSAGE_TYPE, notificationFromPush, pickWindow, type NavigateMessage } from './webPushNotification';

/*
 * The service worker's push and notification-click handlers. Built on its own into /push-handlers.js
 * (vite.config.ts) and loaded by the generated worker with importScripts.
 *
 * The app compiles against the DOM library, which has no service worker events: the few members used
 * here are declared below, and `self` is taken as that scope.
 */

interface ExtendableEventLike extends Event {
  waitUntil(promise: Promise<unknown>): void;
}

interface PushEventLike extends ExtendableEventLike {
  readonly data: { json(): unknown } | null;
}

interface NotificationEventLike extends ExtendableEventLike {
  readonly notification: Notification;
}

interface WindowClientLike {
  readonly url: string;
  readonly focused: boolean;
  focus(): Promise<WindowClientLike>;
  navigate(url: string): Promise<WindowClientLike | null>;
  postMessage(message: NavigateMessage, transfer: Transferable[]): void;
}

interface ServiceWorkerScopeLike {
  readonly registration: ServiceWorkerRegistration;
  readonly location: { readonly origin: string };
  readonly clients: {
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<readonly WindowClientLike[]>;
    openWindow(url: string): Promise<WindowClientLike | null>;
  };
  addEventListener(type: 'push', listener: (event: PushEventLike) => void): void;
  addEventListener(type: 'notificationclick', listener: (event: NotificationEventLike) => void): void;
}

const scope = self as unknown as ServiceWorkerScopeLike;

/** How long an open window gets to say it moved to the page itself (the app's router, no reload). */
const NAVIGATE_ANSWER_MS = 1000;

const readJson = (data: PushEventLike['data']): unknown => {
  try {
    return data?.json() ?? null;
  } catch {
    // Not JSON: the notification shows its defaults.
    return null;
  }
};

const askToNavigate = (client: WindowClientLike, path: string): Promise<boolean> =>
  new Promise((resolve) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => {
      resolve(false);
    }, NAVIGATE_ANSWER_MS);
    channel.port1.onmessage = () => {
      clearTimeout(timer);
      resolve(true);
    };
    client.postMessage({ type: NAVIGATE_MESSAGE_TYPE, url: path }, [channel.port2]);
  });

/** Focuses an open window of the app on the page, or opens one. */
const openPage = async (href: string): Promise<void> => {
  const windows = await scope.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const client = pickWindow(windows, scope.location.origin);
  if (client === null) {
    await scope.clients.openWindow(href);
    return;
  }
  const focused = await client.focus();
  const url = new URL(href);
  if (await askToNavigate(focused, `${url.pathname}${url.search}`)) return;
  // A page without the app's listener (signing in, a media view): load the page instead.
  await focused.navigate(href).catch(() => scope.clients.openWindow(href));
};

scope.addEventListener('push', (event) => {
  const { title, options } = notificationFromPush(readJson(event.data));
  event.waitUntil(scope.registration.showNotification(title, options));
});

scope.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(openPage(clickTarget(event.notification.data, scope.location.origin)));
});
