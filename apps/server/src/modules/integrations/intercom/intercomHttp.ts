import { GuardedFetchError, type GuardedFetch, type GuardedResponse } from '../../../platform/net/guardedFetch.js';
import { ProviderError, retryAfterSeconds } from '../providerError.js';

/*
 * Intercom's answers as the framework acts on them (docs/integrations.md, "Intercom"): 401/403 the token is
 * refused (the app was uninstalled), 429 comes with Retry-After or X-RateLimit-Reset, others fail the call.
 */

export const INTERCOM_TIMEOUT_MS = 20_000;
/** The REST API version Parley speaks (the Intercom-Version header). */
export const INTERCOM_VERSION = '2.14';

const pathOf = (url: string): string => {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
};

/** The guarded fetcher's failure as the provider's. */
export async function intercomFetch(fetch: GuardedFetch, url: string, init: { method: string; headers: Record<string, string>; body?: string }): Promise<GuardedResponse> {
  try {
    return await fetch(url, { ...init, maxRedirects: 0, timeoutMs: INTERCOM_TIMEOUT_MS });
  } catch (error) {
    if (error instanceof GuardedFetchError) throw new ProviderError('failed', `Intercom could not be reached: ${error.message}`);
    throw error;
  }
}

/** Throws the ProviderError an answer that is not a success means. */
export function checkAnswer(answer: GuardedResponse, url: string, now = new Date()): void {
  if (answer.status === 401 || answer.status === 403) throw new ProviderError('unauthorized', 'Intercom refused the authorization; connect again');
  if (answer.status === 429) {
    const reset = Number(answer.headers.get('x-ratelimit-reset') ?? '');
    const fallback = Number.isFinite(reset) && reset > 0 ? Math.max(1, Math.ceil(reset - now.getTime() / 1000)) : 10;
    throw new ProviderError('rateLimited', 'Intercom asked to slow down', retryAfterSeconds(answer.headers.get('retry-after'), now, fallback));
  }
  if (answer.status < 200 || answer.status >= 300) throw new ProviderError('failed', `Intercom answered ${String(answer.status)} to ${pathOf(url)}`);
}

/** The JSON of a successful answer. */
export function jsonOf(answer: GuardedResponse, url: string): unknown {
  try {
    return JSON.parse(answer.body.toString('utf8'));
  } catch {
    throw new ProviderError('failed', `Intercom's answer to ${pathOf(url)} is not JSON`);
  }
}
