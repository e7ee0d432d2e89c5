/**
 * Why a guarded fetch did not get an answer:
 * - `invalid-url`: not an absolute URL;
 * - `scheme`: not http or https;
 * - `blocked`: the host is, or resolves to, an address that is not public and not allowed;
 * - `too-large`: the answer is larger than the limit;
 * - `redirects`: more redirects than allowed, or one without a usable Location;
 * - `timeout`: no complete answer within the time given;
 * - `unreachable`: no connection, or it broke (refused, reset, name not found, TLS failure).
 */
export type GuardedFetchErrorKind = 'invalid-url' | 'scheme' | 'blocked' | 'too-large' | 'redirects' | 'timeout' | 'unreachable';

export class GuardedFetchError extends Error {
  constructor(
    readonly kind: GuardedFetchErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'GuardedFetchError';
  }

  /** Whether trying again later may work: the other side did not answer (in time). A refusal by the guard never does. */
  get retryable(): boolean {
    return this.kind === 'timeout' || this.kind === 'unreachable';
  }
}

/** Whether an HTTP status says "try again later": 408, 429 and 5xx. */
export const isRetryableStatus = (status: number): boolean => status === 408 || status === 429 || status >= 500;

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** What an exchange that got no answer from `url` failed with: the guard's own refusal, or `unreachable`. */
export function unreachable(error: unknown, url: URL): GuardedFetchError {
  return error instanceof GuardedFetchError ? error : new GuardedFetchError('unreachable', `no answer from ${url.host}: ${errorText(error)}`, { cause: error });
}

/** What an exchange cut off by its signal failed with: the deadline's own error, or `timeout`. */
export function aborted(reason: unknown): GuardedFetchError {
  return reason instanceof GuardedFetchError ? reason : new GuardedFetchError('timeout', `aborted: ${errorText(reason)}`);
}
