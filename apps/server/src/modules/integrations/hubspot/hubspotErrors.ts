/*
 * What HubSpot's refusals mean to the integrations framework (docs/integrations-hubspot.md, "Errors"):
 * a rejected token or a missing scope is a HubSpotAuthError (the integration goes to status error until it
 * is connected again), a 429 is a HubSpotRateLimited carrying how long to wait (the sync job is rescheduled;
 * nothing here sleeps), anything else HubSpot refuses is a HubSpotRequestError.
 */

/** HubSpot refused the token, the code or the client credentials: only connecting again helps. */
export class HubSpotAuthError extends Error {
  override readonly name = 'HubSpotAuthError';
  constructor(
    readonly reason: string,
    readonly status: number,
  ) {
    super(`HubSpot refused the authorization (${String(status)}): ${reason}`);
  }
}

/** HubSpot answered 429: try again after `retryAfterMs`. */
export class HubSpotRateLimited extends Error {
  override readonly name = 'HubSpotRateLimited';
  constructor(readonly retryAfterMs: number) {
    super(`HubSpot rate limit reached; retry after ${String(retryAfterMs)} ms`);
  }
}

/** Every other answer outside 2xx. */
export class HubSpotRequestError extends Error {
  override readonly name = 'HubSpotRequestError';
  constructor(
    readonly status: number,
    readonly reason: string,
  ) {
    super(`HubSpot answered ${String(status)}: ${reason}`);
  }
}

/** The shape of the client library's ApiException (each of its API families has its own class of it). */
interface ApiExceptionShape {
  code: number;
  headers: Record<string, string>;
  body: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function isApiException(error: unknown): error is ApiExceptionShape {
  return error instanceof Error && typeof (error as Partial<ApiExceptionShape>).code === 'number' && isRecord((error as Partial<ApiExceptionShape>).headers);
}

/** HubSpot's error text: `message` (CRM APIs), `error_description` (OAuth), else `status` or `category`. */
export function reasonOf(body: unknown, status: number): string {
  if (!isRecord(body)) return typeof body === 'string' && body !== '' ? body.slice(0, 500) : `status ${String(status)}`;
  for (const key of ['message', 'error_description', 'status', 'category', 'error']) {
    const value = body[key];
    if (typeof value === 'string' && value !== '') return value.slice(0, 500);
  }
  return `status ${String(status)}`;
}

/** HubSpot's default rolling window is ten seconds; its search APIs limit per second. */
const TEN_SECONDS_MS = 10_000;

/**
 * How long a 429 asks us to wait: Retry-After in seconds or as an HTTP date; without it, the window of the
 * policy HubSpot names in the body (one second for the "secondly" limits, else ten seconds).
 */
export function retryAfterMs(headers: Record<string, string>, body: unknown, nowMs: number): number {
  const header = headers['retry-after']?.trim();
  if (header !== undefined && header !== '') {
    if (/^\d+$/.test(header)) return Number(header) * 1000;
    const at = Date.parse(header);
    if (!Number.isNaN(at)) return Math.max(0, at - nowMs);
  }
  const policy = isRecord(body) && typeof body.policyName === 'string' ? body.policyName : '';
  return policy === 'SECONDLY' ? 1000 : TEN_SECONDS_MS;
}

/** The typed error for what the client library threw (errors that are not HubSpot's answers pass through). */
export function hubspotError(error: unknown, nowMs = Date.now()): unknown {
  if (!isApiException(error)) return error;
  const reason = reasonOf(error.body, error.code);
  if (error.code === 401) return new HubSpotAuthError(reason, 401);
  if (error.code === 403 && isRecord(error.body) && error.body.category === 'MISSING_SCOPES') return new HubSpotAuthError(reason, 403);
  if (error.code === 429) return new HubSpotRateLimited(retryAfterMs(error.headers, error.body, nowMs));
  return new HubSpotRequestError(error.code, reason);
}

/** Runs one call of the client library and throws its refusal as one of the typed errors above. */
export async function callHubSpot<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw hubspotError(error);
  }
}
