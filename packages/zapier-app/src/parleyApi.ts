import type { Bundle, ZObject } from 'zapier-platform-core';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export const SERVER_URL_MESSAGE = 'The Parley URL must start with https:// (http:// only for localhost or 127.0.0.1)';

/** The deployment's base URL from the connection, refusing plain HTTP except on this machine (testing). */
export function parleyBase(z: ZObject, serverUrl: string | undefined): string {
  let url: URL;
  try {
    url = new URL((serverUrl ?? '').trim());
  } catch {
    throw new z.errors.Error(SERVER_URL_MESSAGE, 'invalid_server_url', 400);
  }
  const local = url.protocol === 'http:' && (url.hostname === 'localhost' || url.hostname === '127.0.0.1');
  if (url.protocol !== 'https:' && !local) throw new z.errors.Error(SERVER_URL_MESSAGE, 'invalid_server_url', 400);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** The connected account's API path: `/v1/accounts/{accountId}` and `path` after it. */
export const accountUrl = (z: ZObject, bundle: Bundle, path = ''): string =>
  `${parleyBase(z, bundle.authData.serverUrl)}/v1/accounts/${encodeURIComponent(bundle.authData.accountId ?? '')}${path}`;

export interface ApiCall {
  method?: Method;
  path?: string;
  params?: Record<string, string | number>;
  body?: object;
}

/** One call to the account's API; the `data` of the answer. Refusals are thrown by the app's afterResponse. */
export async function callAccount<T>(z: ZObject, bundle: Bundle, call: ApiCall): Promise<T> {
  const response = await z.request<{ data: T }>({
    url: accountUrl(z, bundle, call.path),
    method: call.method ?? 'GET',
    ...(call.params === undefined ? {} : { params: call.params }),
    ...(call.body === undefined ? {} : { body: call.body }),
  });
  return response.data.data;
}

/** Digits of a phone number as written ("+1 (202) 555-0143" gives "12025550143"). */
export const digitsOf = (number: string): string => number.replace(/\D/g, '');

export interface ContactRecord {
  id: string;
  mobile: { number: string; country: string };
  [field: string]: unknown;
}

/**
 * The account's contact with this number, or null. The API's `mobile` filter matches part of a number, so
 * the exact one is picked here: the same digits, or a national number (no +) ending the stored one in the
 * country given.
 */
export async function findContactByMobile(z: ZObject, bundle: Bundle, number: string, country: string | undefined): Promise<ContactRecord | null> {
  const digits = digitsOf(number);
  if (digits === '') return null;
  const found = await callAccount<ContactRecord[]>(z, bundle, { path: '/contacts', params: { mobile: digits, limit: 50 } });
  const exact = found.find((c) => digitsOf(c.mobile.number) === digits);
  if (exact !== undefined || number.trim().startsWith('+')) return exact ?? null;
  return found.find((c) => digitsOf(c.mobile.number).endsWith(digits) && (country === undefined || country === '' || c.mobile.country === country.toUpperCase())) ?? null;
}
