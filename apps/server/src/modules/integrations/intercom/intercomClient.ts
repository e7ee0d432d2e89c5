import { IntercomClient, type BaseClientOptions } from 'intercom-client';
import type { GuardedFetch } from '../../../platform/net/guardedFetch.js';
import { checkAnswer, INTERCOM_VERSION, intercomFetch, jsonOf } from './intercomHttp.js';

/*
 * Intercom's official client on the configured API base, every request sent by the guarded fetcher: the
 * client takes a `fetcher` option, the function that performs its requests. Ours resolves the headers the
 * client hands (strings or suppliers), sends through the guarded fetcher and answers with the parsed JSON;
 * a failure is thrown as the ProviderError it means, so the client never sees (or retries) an error answer.
 */

type FetchFunction = NonNullable<BaseClientOptions['fetcher']>;
type FetchArgs = Parameters<FetchFunction>[0];

/** Where a connection's calls go and with what. */
export interface IntercomTarget {
  apiBaseUrl: string;
  accessToken: string;
  fetch: GuardedFetch;
}

async function headersOf(args: FetchArgs): Promise<Record<string, string>> {
  const headers: Record<string, string> = { accept: 'application/json' };
  for (const [name, value] of Object.entries(args.headers ?? {})) {
    const resolved: unknown = typeof value === 'function' ? await (value as (arg: object) => unknown)({ endpointMetadata: args.endpointMetadata ?? {} }) : value;
    if (typeof resolved === 'string') headers[name] = resolved;
  }
  if (args.body !== undefined) headers['content-type'] = args.contentType ?? 'application/json';
  return headers;
}

function urlOf(args: FetchArgs): string {
  const url = new URL(args.url);
  for (const [name, value] of Object.entries(args.queryParameters ?? {})) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') url.searchParams.set(name, String(value));
  }
  return url.toString();
}

/** The client's fetcher, on the guarded fetcher. */
export function guardedFetcher(fetch: GuardedFetch): FetchFunction {
  // The client names the answer's type it expects; the answer is checked against its schema by the caller.
  return async (args: FetchArgs) => {
    const url = urlOf(args);
    const answer = await intercomFetch(fetch, url, {
      method: args.method,
      headers: await headersOf(args),
      ...(args.body === undefined ? {} : { body: JSON.stringify(args.body) }),
    });
    checkAnswer(answer, url);
    const rawResponse = { headers: answer.headers, redirected: false, status: answer.status, statusText: '', type: 'basic' as const, url: answer.url };
    return { ok: true as const, body: (answer.body.length === 0 ? undefined : jsonOf(answer, url)) as never, rawResponse };
  };
}

export function intercomClient(t: IntercomTarget): IntercomClient {
  return new IntercomClient({ baseUrl: t.apiBaseUrl, token: t.accessToken, version: INTERCOM_VERSION, maxRetries: 0, fetcher: guardedFetcher(t.fetch) });
}
