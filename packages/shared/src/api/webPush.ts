import { z } from 'zod';
import { validationMessages } from '../validation.js';
import { recordResponse } from './pagination.js';

/*
 * Web push (docs/webPush.md; webpush/register): a browser of a signed-in person asks for notifications of the
 * account it is signed in to. The server keeps one VAPID key pair per deployment and pushes new incoming
 * messages to the browsers of the users who may see their conversation.
 */

/** The browser refused the permission. */
export const WEB_PUSH_DENIED_MESSAGE = 'You denied the consent to receive notifications';
/** Unsupported push only logs a warning (console), nothing is shown. */
export const WEB_PUSH_UNSUPPORTED_WARNING = 'Push notifications are not supported by this browser';
export const WEB_PUSH_API_CLIENTS_MESSAGE = 'Push notifications are for people: API credentials cannot register for them.';
/** PostgreSQL without SECRETS_KEY: the VAPID private key cannot be stored encrypted. */
export const WEB_PUSH_UNAVAILABLE_MESSAGE =
  'Push notifications are not available on this server: its operator has to set SECRETS_KEY.';

export const WEB_PUSH_ENDPOINT_MESSAGE = 'Must be the https URL of a push service';
export const WEB_PUSH_P256DH_MESSAGE = "Must be the browser's P-256 public key (65 bytes, base64url)";
export const WEB_PUSH_AUTH_MESSAGE = "Must be the browser's authentication secret (16 bytes, base64url)";

/** Push services' URLs are a few hundred characters; anything longer is not one. */
export const WEB_PUSH_ENDPOINT_MAX = 2048;

/** The notification text is cut here (plus an ellipsis): a notification shows two or three lines. */
export const WEB_PUSH_BODY_LENGTH = 120;
/** The body of a message that carries only media. */
export const WEB_PUSH_MEDIA_ONLY_BODY = 'Picture';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Browsers' push services are https. Plain http is accepted only on this machine (a push service in
 * development and tests): the server POSTs to the endpoint, so nothing else gets plain http.
 */
export const isPushEndpoint = (value: string): boolean => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username !== '' || url.password !== '') return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
};

// Browsers hand keys in base64url without padding; some libraries use the standard alphabet or pad.
const BASE64_CHAR = '[A-Za-z0-9_+/-]';
// 65 bytes: an uncompressed point, whose first byte 0x04 encodes as 'B'.
const P256DH = new RegExp(`^B${BASE64_CHAR}{86}=?$`);
const AUTH = new RegExp(`^${BASE64_CHAR}{22}(==)?$`);

/** The stored form: base64url without padding, as browsers write it and web-push reads it. */
export const toBase64Url = (value: string): string => value.replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');

const keyText = (pattern: RegExp, message: string) =>
  z
    .string({ message: validationMessages.required })
    .trim()
    .min(1, { message: validationMessages.required, abort: true })
    .refine((v) => pattern.test(v), { message })
    .transform(toBase64Url);

/** A browser's PushSubscription as its toJSON() writes it. */
export const pushSubscriptionSchema = z
  .object({
    endpoint: z
      .string({ message: validationMessages.required })
      .trim()
      .min(1, { message: validationMessages.required, abort: true })
      .max(WEB_PUSH_ENDPOINT_MAX, { message: `At most ${WEB_PUSH_ENDPOINT_MAX} characters`, abort: true })
      .refine(isPushEndpoint, { message: WEB_PUSH_ENDPOINT_MESSAGE }),
    /** When the push service will expire it (ms since the epoch), if it says; not kept. */
    expirationTime: z.number({ message: validationMessages.number }).nullable().optional(),
    keys: z.object(
      {
        p256dh: keyText(P256DH, WEB_PUSH_P256DH_MESSAGE),
        auth: keyText(AUTH, WEB_PUSH_AUTH_MESSAGE),
      },
      { message: validationMessages.required },
    ),
  }, { message: validationMessages.required })
  .meta({ id: 'PushSubscription' });

/** POST /v1/accounts/{acc}/webpush/register: `type` is always webpush (plus the subscription data). */
export const registerWebPushSchema = z
  .object({
    type: z.literal('webpush', { message: 'Must be webpush' }),
    subscription: pushSubscriptionSchema,
  })
  .meta({ id: 'RegisterWebPush' });

export type RegisterWebPush = z.input<typeof registerWebPushSchema>;

/** DELETE /v1/accounts/{acc}/webpush/register: this browser no longer wants notifications of the account. */
export const unregisterWebPushSchema = z
  .object({
    endpoint: z
      .string({ message: validationMessages.required })
      .trim()
      .min(1, { message: validationMessages.required })
      .max(WEB_PUSH_ENDPOINT_MAX, { message: `At most ${WEB_PUSH_ENDPOINT_MAX} characters` }),
  })
  .meta({ id: 'UnregisterWebPush' });

export type UnregisterWebPush = z.input<typeof unregisterWebPushSchema>;

/** A registered browser, as its owner sees it. */
export const webPushSubscriptionSchema = z
  .object({
    id: z.uuid(),
    endpoint: z.string(),
    created: z.object({ at: z.string() }),
  })
  .meta({ id: 'WebPushSubscription' });

export type WebPushSubscription = z.infer<typeof webPushSubscriptionSchema>;

export const webPushSubscriptionResponseSchema = recordResponse(webPushSubscriptionSchema);

/**
 * GET /v1/accounts/{acc}/webpush: the key browsers subscribe with (applicationServerKey, base64url), or
 * null when this server cannot push (the web app then offers no notifications).
 */
export const webPushSettingsSchema = z
  .object({ publicKey: z.string().nullable() })
  .meta({ id: 'WebPushSettings' });

export type WebPushSettings = z.infer<typeof webPushSettingsSchema>;

export const webPushSettingsResponseSchema = recordResponse(webPushSettingsSchema);

/** What a push carries (encrypted for the browser); the service worker shows it. */
export interface WebPushPayload {
  /** The contact's name, or its number. */
  title: string;
  /** The text cut at WEB_PUSH_BODY_LENGTH, or 'Picture' for media only. */
  body: string;
  /** Where a click leads: the conversation in the web app. */
  url: string;
  /** The conversation id: a newer notification of the conversation replaces the older one. */
  tag: string;
}

/** The notification text of a message. */
export const webPushBody = (text: string, mediaCount: number): string => {
  const trimmed = text.trim();
  if (trimmed === '') return mediaCount > 0 ? WEB_PUSH_MEDIA_ONLY_BODY : '';
  // By code points, so an emoji is never cut in half.
  const chars = Array.from(trimmed);
  return chars.length > WEB_PUSH_BODY_LENGTH ? `${chars.slice(0, WEB_PUSH_BODY_LENGTH).join('')}…` : trimmed;
};
