import { WEB_PUSH_UNSUPPORTED_WARNING, webPushSettingsResponseSchema, type RegisterWebPush } from '@parley/shared';
import type { ApiClient } from '../api/client';

/*
 * The page's side of web push: asking the browser's permission, subscribing with the server's key and
 * registering the subscription for the account (POST webpush/register). docs/webPush.md tells the rest.
 */

/** What the notifications button shows. */
export type WebPushState =
  /** The browser cannot push (no service worker or PushManager; iOS outside an installed app). */
  | 'unsupported'
  /** The server cannot push (no key). */
  | 'unavailable'
  /** The person blocked notifications for this site. */
  | 'denied'
  | 'off'
  | 'on';

export type EnableOutcome = 'on' | 'denied' | 'dismissed' | 'unsupported';

/** The applicationServerKey as PushManager.subscribe wants it: base64url (padding optional) to bytes. */
export const urlBase64ToUint8Array = (base64Url: string): Uint8Array<ArrayBuffer> => {
  const base64 = `${base64Url}${'='.repeat((4 - (base64Url.length % 4)) % 4)}`.replaceAll('-', '+').replaceAll('_', '/');
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
};

/** Whether a browser subscription was made with this server key (after a key change it must be made again). */
export const madeWithKey = (applicationServerKey: ArrayBuffer | null, publicKey: string): boolean => {
  if (applicationServerKey === null) return false;
  const made = new Uint8Array(applicationServerKey);
  const wanted = urlBase64ToUint8Array(publicKey);
  return made.length === wanted.length && made.every((byte, i) => byte === wanted[i]);
};

/** The register body of a browser subscription (PushSubscription.toJSON()). */
export const registrationOf = (subscription: PushSubscriptionJSON): RegisterWebPush => ({
  type: 'webpush',
  subscription: {
    endpoint: subscription.endpoint ?? '',
    expirationTime: subscription.expirationTime ?? null,
    keys: { p256dh: subscription.keys?.p256dh ?? '', auth: subscription.keys?.auth ?? '' },
  },
});

export const isPushSupported = (): boolean =>
  typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

let warned = false;
/** Unsupported push only logs a warning (once a page load). */
export const warnUnsupported = (): void => {
  if (warned) return;
  warned = true;
  console.warn(WEB_PUSH_UNSUPPORTED_WARNING);
};

const registerUrl = (accountId: string) => `/v1/accounts/${accountId}/webpush/register`;

/** The server's key, or null when it cannot push. */
export const fetchPublicKey = async (api: ApiClient, accountId: string, signal?: AbortSignal): Promise<string | null> =>
  (await api.get(`/v1/accounts/${accountId}/webpush`, { schema: webPushSettingsResponseSchema, ...(signal ? { signal } : {}) })).data.publicKey;

/**
 * The app's service worker, once active; null when none is registered (the development server runs
 * without one), where `navigator.serviceWorker.ready` would wait forever.
 */
const workerRegistration = async (): Promise<ServiceWorkerRegistration | null> => {
  const registration = await navigator.serviceWorker.getRegistration();
  if (registration === undefined) return null;
  return registration.active === null ? navigator.serviceWorker.ready : registration;
};

const browserSubscription = async (registration: ServiceWorkerRegistration): Promise<PushSubscription | null> =>
  registration.pushManager.getSubscription();

/** This browser's subscription with the server's key: the current one, or a new one (an old key's is dropped). */
const subscribe = async (registration: ServiceWorkerRegistration, publicKey: string): Promise<PushSubscription> => {
  const existing = await registration.pushManager.getSubscription();
  if (existing !== null && madeWithKey(existing.options.applicationServerKey, publicKey)) return existing;
  await existing?.unsubscribe();
  return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: urlBase64ToUint8Array(publicKey) });
};

const register = async (api: ApiClient, accountId: string, subscription: PushSubscription): Promise<void> => {
  await api.post(registerUrl(accountId), registrationOf(subscription.toJSON()));
};

/** What the button shows now, without asking anything of the person. */
export const currentState = async (publicKey: string | null): Promise<WebPushState> => {
  if (!isPushSupported()) return 'unsupported';
  const registration = await workerRegistration();
  if (registration === null) return 'unsupported';
  if (publicKey === null) return 'unavailable';
  if (Notification.permission === 'denied') return 'denied';
  if (Notification.permission !== 'granted') return 'off';
  const existing = await browserSubscription(registration);
  return existing !== null && madeWithKey(existing.options.applicationServerKey, publicKey) ? 'on' : 'off';
};

/** Asks the permission (the browser's prompt), then subscribes and registers this browser for the account. */
export const enableNotifications = async (api: ApiClient, accountId: string, publicKey: string): Promise<EnableOutcome> => {
  const registration = isPushSupported() ? await workerRegistration() : null;
  if (registration === null) {
    warnUnsupported();
    return 'unsupported';
  }
  const permission = await Notification.requestPermission();
  if (permission === 'denied') return 'denied';
  if (permission !== 'granted') return 'dismissed';
  await register(api, accountId, await subscribe(registration, publicKey));
  return 'on';
};

/** The account stops notifying this browser, and the browser drops its subscription. */
export const disableNotifications = async (api: ApiClient, accountId: string): Promise<void> => {
  const registration = isPushSupported() ? await workerRegistration() : null;
  const existing = registration === null ? null : await browserSubscription(registration);
  if (existing === null) return;
  await api.delete(registerUrl(accountId), { body: { endpoint: existing.endpoint } });
  await existing.unsubscribe();
};

/**
 * After sign-in and on every change of account: a browser that has notifications on registers again, for
 * this account and person (the server moves the browser to them), renewing a subscription of an old key.
 * Asks nothing: without a granted permission and a subscription it does nothing.
 */
export const renewRegistration = async (api: ApiClient, accountId: string, publicKey: string): Promise<boolean> => {
  if (!isPushSupported() || Notification.permission !== 'granted') return false;
  const registration = await workerRegistration();
  if (registration === null || (await browserSubscription(registration)) === null) return false;
  await register(api, accountId, await subscribe(registration, publicKey));
  return true;
};
