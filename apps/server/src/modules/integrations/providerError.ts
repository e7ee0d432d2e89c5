/**
 * A provider's answer the framework acts on: 'unauthorized' (401/403: the credentials are refused; the
 * integration goes to error and the administrators are told), 'rateLimited' (429: the job comes back after
 * `retryAfterSeconds`), 'failed' (anything else: the sync fails with the message).
 */
export type ProviderErrorKind = 'unauthorized' | 'rateLimited' | 'failed';

export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly retryAfterSeconds = 0,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** Retry-After in seconds (a number of seconds or an HTTP date); at least one second, `fallback` when absent. */
export function retryAfterSeconds(header: string | null, now: Date, fallback = 1): number {
  if (header === null || header.trim() === '') return fallback;
  const seconds = Number(header.trim());
  if (Number.isFinite(seconds)) return Math.max(1, Math.ceil(seconds));
  const at = Date.parse(header);
  if (Number.isNaN(at)) return fallback;
  return Math.max(1, Math.ceil((at - now.getTime()) / 1000));
}
