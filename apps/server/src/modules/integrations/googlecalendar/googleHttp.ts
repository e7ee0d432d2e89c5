import { GuardedFetchError, type GuardedFetch, type GuardedResponse } from '../../../platform/net/guardedFetch.js';
import { ProviderError, retryAfterSeconds } from '../providerError.js';

/*
 * Google's answers as the framework acts on them (docs/integrations.md, "Google Calendar"): 401 (and a token
 * endpoint's invalid_grant) the credentials are refused, 429 and a 403 rateLimitExceeded wait, others fail.
 */

export const GOOGLE_TIMEOUT_MS = 20_000;

/** Sends through the guarded fetcher, no redirect followed; the fetcher's failure becomes the provider's. */
export async function googleFetch(fetch: GuardedFetch, url: string, init: { method: string; headers: Record<string, string>; body?: string }): Promise<GuardedResponse> {
  try {
    return await fetch(url, { ...init, maxRedirects: 0, timeoutMs: GOOGLE_TIMEOUT_MS });
  } catch (error) {
    if (error instanceof GuardedFetchError) throw new ProviderError('failed', `Google could not be reached: ${error.message}`);
    throw error;
  }
}

const reasonOf = (body: string): string => {
  try {
    const parsed = JSON.parse(body) as { error?: { errors?: { reason?: string }[]; status?: string } | string };
    if (typeof parsed.error === 'string') return parsed.error;
    return parsed.error?.errors?.[0]?.reason ?? parsed.error?.status ?? '';
  } catch {
    return '';
  }
};

/** The ProviderError a Google answer that is not a success means (null: a success). */
export function googleFailure(status: number, headers: Headers, body: string, what: string, now = new Date()): ProviderError | null {
  if (status >= 200 && status < 300) return null;
  const reason = reasonOf(body);
  if (status === 429 || (status === 403 && /rateLimitExceeded|userRateLimitExceeded/.test(reason))) {
    return new ProviderError('rateLimited', 'Google asked to slow down', retryAfterSeconds(headers.get('retry-after'), now, 30));
  }
  if (status === 401 || reason === 'invalid_grant') return new ProviderError('unauthorized', 'Google refused the authorization; connect again');
  return new ProviderError('failed', `Google answered ${String(status)} to ${what}${reason === '' ? '' : ` (${reason})`}`);
}
