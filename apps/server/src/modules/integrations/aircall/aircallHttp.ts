import { z } from 'zod';
import { GuardedFetchError, type GuardedFetch } from '../../../platform/net/guardedFetch.js';
import { ProviderError, retryAfterSeconds } from '../providerError.js';

/*
 * AirCall's public API (docs/integrations.md, "AirCall"): JSON under AIRCALL_API_BASE_URL/v1, `Authorization:
 * Bearer <token>`, 401/403 when the token is refused (the app was uninstalled), 429 past its rate limit (60 a
 * minute) with X-AircallApi-Reset (a Unix time), lists paged by `meta.next_page_link`.
 */

export const AIRCALL_TIMEOUT_MS = 20_000;

export interface AirCallTarget {
  /** AIRCALL_API_BASE_URL, no trailing slash. */
  origin: string;
  accessToken: string;
  fetch: GuardedFetch;
}

const pathOf = (url: string): string => {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
};

function rateLimited(headers: { get(name: string): string | null }, now: Date): ProviderError {
  const reset = Number(headers.get('x-aircallapi-reset') ?? '');
  const fallback = Number.isFinite(reset) && reset > 0 ? Math.max(1, Math.ceil(reset - now.getTime() / 1000)) : 60;
  return new ProviderError('rateLimited', 'AirCall asked to slow down', retryAfterSeconds(headers.get('retry-after'), now, fallback));
}

/**
 * One call: `url` is absolute (a page link AirCall gave, already checked to be on its host) or a path under
 * the origin. Answers the JSON of a success (null for an empty one), throws the ProviderError of a failure.
 */
export async function aircallCall<S extends z.ZodType>(
  target: AirCallTarget,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  schema: S,
  body?: unknown,
): Promise<z.infer<S>> {
  const absolute = url.startsWith('/') ? `${target.origin}${url}` : url;
  let answer;
  try {
    answer = await target.fetch(absolute, {
      method,
      headers: {
        ...(target.accessToken === '' ? {} : { authorization: `Bearer ${target.accessToken}` }),
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      maxRedirects: 0,
      timeoutMs: AIRCALL_TIMEOUT_MS,
    });
  } catch (error) {
    if (error instanceof GuardedFetchError) throw new ProviderError('failed', `AirCall could not be reached: ${error.message}`);
    throw error;
  }
  const where = pathOf(absolute);
  if (answer.status === 401 || answer.status === 403) throw new ProviderError('unauthorized', 'AirCall refused the authorization; connect again');
  if (answer.status === 429) throw rateLimited(answer.headers, new Date());
  if (answer.status < 200 || answer.status >= 300) throw new ProviderError('failed', `AirCall answered ${String(answer.status)} to ${where}`);
  const text = answer.body.toString('utf8');
  let json: unknown;
  try {
    json = text.trim() === '' ? null : JSON.parse(text);
  } catch {
    throw new ProviderError('failed', `AirCall's answer to ${where} is not JSON`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new ProviderError('failed', `AirCall's answer to ${where} is not as documented`);
  return parsed.data;
}

/**
 * The next page's link, only when it is on AirCall's own origin (a link elsewhere would send the token there):
 * null at the last page or for a link to another host.
 */
export function nextPageOf(target: AirCallTarget, link: string | null | undefined): string | null {
  if (link === null || link === undefined || link === '') return null;
  let next: URL;
  try {
    next = new URL(link);
  } catch {
    return null;
  }
  return next.origin === new URL(target.origin).origin ? next.toString() : null;
}
