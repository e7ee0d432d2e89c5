import { GuardedFetchError, type GuardedFetch, type GuardedResponse } from '../../../platform/net/guardedFetch.js';
import { ProviderError, retryAfterSeconds } from '../providerError.js';

/*
 * Pipedrive's answers as the framework acts on them (docs/integrations.md, "Pipedrive"): 401/403 the token is
 * refused, 429 comes with Retry-After (the company's rate limit), other failures fail the call.
 */

export const PIPEDRIVE_TIMEOUT_MS = 20_000;

const pathOf = (url: string): string => {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
};

/** The guarded fetcher's failure as the provider's. */
export async function pipedriveFetch(fetch: GuardedFetch, url: string, init: { method: string; headers: Record<string, string>; body?: string }): Promise<GuardedResponse> {
  try {
    return await fetch(url, { ...init, maxRedirects: 0, timeoutMs: PIPEDRIVE_TIMEOUT_MS });
  } catch (error) {
    if (error instanceof GuardedFetchError) throw new ProviderError('failed', `Pipedrive could not be reached: ${error.message}`);
    throw error;
  }
}

/** Throws the ProviderError an answer that is not a success means. */
export function checkAnswer(answer: GuardedResponse, url: string): void {
  if (answer.status === 401 || answer.status === 403) throw new ProviderError('unauthorized', 'Pipedrive refused the authorization; connect again');
  if (answer.status === 429) {
    throw new ProviderError('rateLimited', 'Pipedrive asked to slow down', retryAfterSeconds(answer.headers.get('retry-after'), new Date()));
  }
  if (answer.status < 200 || answer.status >= 300) throw new ProviderError('failed', `Pipedrive answered ${String(answer.status)} to ${pathOf(url)}`);
}

/** The JSON of a successful answer. */
export function jsonOf(answer: GuardedResponse, url: string): unknown {
  try {
    return JSON.parse(answer.body.toString('utf8'));
  } catch {
    throw new ProviderError('failed', `Pipedrive's answer to ${pathOf(url)} is not JSON`);
  }
}
