import { calendar, type calendar_v3 } from '@googleapis/calendar';
import type { GoogleCalendarConfig } from '../../../platform/config.js';
import type { GuardedFetch } from '../../../platform/net/guardedFetch.js';
import { ProviderError } from '../providerError.js';
import { googleFailure, googleFetch } from './googleHttp.js';

/*
 * Google's own Calendar client (@googleapis/calendar) on GOOGLE_CALENDAR_API_BASE_URL (its rootUrl), every
 * request sent by the guarded fetcher: the client's HTTP layer (gaxios) takes a `fetchImplementation`, and ours
 * sends only to the configured API origin, follows no redirect, asks for an uncompressed answer (the guarded
 * fetcher hands the bytes as they came) and turns a failure into the ProviderError it means before the client
 * sees it; the client's own retries are off (the jobs retry). docs/decisions.md, "Google Calendar's client on
 * the guarded fetcher".
 */

export interface CalendarTarget {
  config: GoogleCalendarConfig;
  accessToken: string;
  fetch: GuardedFetch;
}

const headersOf = (init: RequestInit | undefined): Record<string, string> => {
  const headers: Record<string, string> = {};
  new Headers(init?.headers).forEach((value, name) => {
    headers[name] = value;
  });
  headers['accept-encoding'] = 'identity';
  return headers;
};

/** The client's fetch: the guarded fetcher, to the configured API origin only. */
export function guardedCalendarFetch(fetch: GuardedFetch, apiBaseUrl: string): typeof globalThis.fetch {
  const origin = new URL(apiBaseUrl).origin;
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.origin !== origin) throw new ProviderError('failed', `Refused to call ${url.origin}: not the configured Google Calendar API`);
    const body = init?.body;
    if (body !== undefined && body !== null && typeof body !== 'string') throw new ProviderError('failed', 'Only text bodies are sent to Google Calendar');
    const method = init?.method ?? 'GET';
    const answer = await googleFetch(fetch, url.toString(), { method, headers: headersOf(init), ...(body === undefined || body === null ? {} : { body }) });
    const failure = googleFailure(answer.status, answer.headers, answer.body.toString('utf8'), `${method} ${url.pathname}`);
    if (failure !== null) throw failure;
    return new Response(answer.status === 204 || answer.body.length === 0 ? null : new Uint8Array(answer.body), { status: answer.status, headers: answer.headers });
  };
}

export function calendarClient(t: CalendarTarget): calendar_v3.Calendar {
  return calendar({
    version: 'v3',
    rootUrl: `${t.config.apiBaseUrl}/`,
    headers: { authorization: `Bearer ${t.accessToken}` },
    fetchImplementation: guardedCalendarFetch(t.fetch, t.config.apiBaseUrl),
    retry: false,
  });
}

/** Runs a client call; the ProviderError our fetch threw comes out as itself, not wrapped by the client. */
export async function calendarCall<T>(call: () => Promise<{ data: T }>): Promise<T> {
  try {
    return (await call()).data;
  } catch (error) {
    if (error instanceof ProviderError) throw error;
    const cause = error instanceof Error ? error.cause : undefined;
    if (cause instanceof ProviderError) throw cause;
    throw new ProviderError('failed', `Google Calendar failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
