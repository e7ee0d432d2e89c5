import { z } from 'zod';
import type { GuardedFetch } from '../../../platform/net/guardedFetch.js';

/*
 * The calls of Twilio's REST API (2010-04-01) the Twilio integration page makes for an account's own Twilio
 * connection (docs/integrations.md, "Twilio"), through the guarded fetcher: the account itself (credentials
 * checked), its IncomingPhoneNumbers (paged by next_page_uri) and a number's update (its SMS webhook).
 */

export const TWILIO_ACCOUNT_TIMEOUT_MS = 15_000;
export const TWILIO_NUMBERS_PAGE_SIZE = 50;

export interface TwilioAccountCredentials {
  apiBaseUrl: string;
  accountSid: string;
  authToken: string;
}

/** A refusal or a failure of Twilio's: `status` 0 when Twilio could not be reached or answered out of shape. */
export class TwilioAccountError extends Error {
  override readonly name = 'TwilioAccountError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const errorBody = z.object({ message: z.string() });

const accountAnswer = z.object({ sid: z.string(), friendly_name: z.string().nullish(), status: z.string() });
export type TwilioAccountInfo = z.infer<typeof accountAnswer>;

const numberAnswer = z.object({
  sid: z.string(),
  phone_number: z.string(),
  friendly_name: z.string().nullish(),
  sms_url: z.string().nullish(),
  capabilities: z.object({ sms: z.boolean().optional(), SMS: z.boolean().optional() }).nullish(),
});
export type TwilioNumberResource = z.infer<typeof numberAnswer>;

const numbersPage = z.object({ incoming_phone_numbers: z.array(numberAnswer), next_page_uri: z.string().nullish() });

const accountPath = (credentials: TwilioAccountCredentials): string => `/2010-04-01/Accounts/${encodeURIComponent(credentials.accountSid)}`;

async function call<T>(fetch: GuardedFetch, credentials: TwilioAccountCredentials, pathAndQuery: string, schema: z.ZodType<T>, form?: Record<string, string>): Promise<T> {
  const headers: Record<string, string> = {
    authorization: `Basic ${Buffer.from(`${credentials.accountSid}:${credentials.authToken}`).toString('base64')}`,
    accept: 'application/json',
  };
  if (form !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
  const answer = await fetch(`${credentials.apiBaseUrl.replace(/\/+$/, '')}${pathAndQuery}`, {
    method: form === undefined ? 'GET' : 'POST',
    headers,
    ...(form === undefined ? {} : { body: new URLSearchParams(form).toString() }),
    maxRedirects: 0,
    timeoutMs: TWILIO_ACCOUNT_TIMEOUT_MS,
  });
  let json: unknown;
  try {
    json = JSON.parse(answer.body.toString('utf8')) as unknown;
  } catch {
    json = null;
  }
  if (answer.status < 200 || answer.status >= 300) {
    const parsed = errorBody.safeParse(json);
    throw new TwilioAccountError(answer.status, parsed.success ? parsed.data.message : `Twilio answered ${String(answer.status)}`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new TwilioAccountError(0, 'Twilio answered out of the documented shape');
  return parsed.data;
}

/** GET /Accounts/{sid}.json: the account, when the SID and token are accepted (401 otherwise). */
export function fetchTwilioAccount(fetch: GuardedFetch, credentials: TwilioAccountCredentials): Promise<TwilioAccountInfo> {
  return call(fetch, credentials, `${accountPath(credentials)}.json`, accountAnswer);
}

/**
 * One page of the account's IncomingPhoneNumbers: the first, or the one a previous page's `next_page_uri`
 * named. A cursor is followed only when it is a page of this account's numbers on Twilio's API (no other
 * path or host is ever fetched with the account's credentials).
 */
export async function pageTwilioNumbers(
  fetch: GuardedFetch,
  credentials: TwilioAccountCredentials,
  cursor: string | null,
): Promise<{ numbers: TwilioNumberResource[]; nextCursor: string | null }> {
  const list = `${accountPath(credentials)}/IncomingPhoneNumbers.json`;
  if (cursor !== null && !isNumbersPage(cursor, list)) throw new TwilioAccountError(400, "Not a page of this Twilio account's numbers");
  const page = await call(fetch, credentials, cursor ?? `${list}?PageSize=${String(TWILIO_NUMBERS_PAGE_SIZE)}`, numbersPage);
  return { numbers: page.incoming_phone_numbers, nextCursor: page.next_page_uri ?? null };
}

function isNumbersPage(cursor: string, list: string): boolean {
  if (!cursor.startsWith(`${list}?`)) return false;
  try {
    const parsed = new URL(cursor, 'http://twilio.invalid');
    return parsed.pathname === list && parsed.host === 'twilio.invalid';
  } catch {
    return false;
  }
}

/** GET /IncomingPhoneNumbers/{sid}.json: one number of the account (404 when the account has none by that SID). */
export function fetchTwilioNumber(fetch: GuardedFetch, credentials: TwilioAccountCredentials, sid: string): Promise<TwilioNumberResource> {
  return call(fetch, credentials, `${accountPath(credentials)}/IncomingPhoneNumbers/${encodeURIComponent(sid)}.json`, numberAnswer);
}

/** POST /IncomingPhoneNumbers/{sid}.json: where Twilio sends the number's incoming messages and calls ('' unsets them). */
export function pointTwilioNumber(
  fetch: GuardedFetch,
  credentials: TwilioAccountCredentials,
  sid: string,
  urls: { smsUrl: string; voiceUrl: string },
): Promise<TwilioNumberResource> {
  return call(fetch, credentials, `${accountPath(credentials)}/IncomingPhoneNumbers/${encodeURIComponent(sid)}.json`, numberAnswer, {
    SmsUrl: urls.smsUrl,
    SmsMethod: 'POST',
    VoiceUrl: urls.voiceUrl,
    VoiceMethod: 'POST',
  });
}

/** Whether Twilio lists SMS among the number's capabilities (its JSON has spelt the key both ways). */
export const smsCapable = (number: TwilioNumberResource): boolean => number.capabilities?.sms === true || number.capabilities?.SMS === true;
