import { localPath } from '@parley/shared';

/*
 * What the service worker does with a push and with a click on its notification, as pure functions (the
 * worker in webPushWorker.ts wires them to its events; tests call them directly).
 */

/** The app icon a notification shows (the PWA manifest's). */
export const NOTIFICATION_ICON = '/pwa-192x192.png';
/** Where a notification leads when its push carried no page. */
export const FALLBACK_PATH = '/conversations';
const FALLBACK_TITLE = 'New message';

/** Sent by the worker to an open window: go to `url` inside the app (no reload); answered on the port. */
export const NAVIGATE_MESSAGE_TYPE = 'parley:navigate';

export interface NavigateMessage {
  type: typeof NAVIGATE_MESSAGE_TYPE;
  /** A path of the app, e.g. /conversations/{id}. */
  url: string;
}

export interface NotificationToShow {
  title: string;
  options: {
    body: string;
    icon: string;
    badge: string;
    /** A newer message of the conversation replaces the notification instead of piling up. */
    tag?: string;
    /** ...and still alerts (sound, vibration) as a new one. */
    renotify?: boolean;
    data: { url: string };
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

/** A path of this app only (the shared rule, localPath): a push never sends a click to another site. */
export const appPath = (value: unknown): string => localPath(value) ?? FALLBACK_PATH;

/** The notification of a push's JSON ({ title, body, url, tag }); anything missing gets a plain default. */
export const notificationFromPush = (payload: unknown): NotificationToShow => {
  const data = isRecord(payload) ? payload : {};
  const tag = text(data.tag);
  return {
    title: text(data.title) ?? FALLBACK_TITLE,
    options: {
      body: typeof data.body === 'string' ? data.body : '',
      icon: NOTIFICATION_ICON,
      badge: NOTIFICATION_ICON,
      ...(tag === null ? {} : { tag, renotify: true }),
      data: { url: appPath(data.url) },
    },
  };
};

/** Where a click on a notification leads: its page on this origin. */
export const clickTarget = (notificationData: unknown, origin: string): string =>
  new URL(appPath(isRecord(notificationData) ? notificationData.url : null), origin).href;

/** The app's window to take the user to: the focused one, else the most recent; null when none is open. */
export const pickWindow = <T extends { url: string; focused: boolean }>(windows: readonly T[], origin: string): T | null => {
  const ours = windows.filter((w) => {
    try {
      return new URL(w.url).origin === origin;
    } catch {
      return false;
    }
  });
  return ours.find((w) => w.focused) ?? ours[0] ?? null;
};

export const isNavigateMessage = (data: unknown): data is NavigateMessage =>
  isRecord(data) && data.type === NAVIGATE_MESSAGE_TYPE && typeof data.url === 'string';
