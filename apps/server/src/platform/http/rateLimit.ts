import type { FastifyRequest } from 'fastify';
import type { Principal } from '../../modules/identity/index.js';
import { AppError } from '../errors.js';

/** A request over its allowance: 429, with the seconds until one more request is allowed (Retry-After). */
export class RateLimitedError extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, 'rate_limited', message);
    this.name = 'RateLimitedError';
  }
}

export const TOO_MANY_REQUESTS = 'Too many requests. Wait a little and try again.';

/**
 * Token buckets per key, in this process's memory: each key may spend up to a minute's allowance at once,
 * and earns it back evenly over the minute. N web processes allow N times the limit (docs/security.md).
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly perMs: number;

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {
    this.perMs = perMinute / 60_000;
  }

  /** Spends one request of `key`'s allowance; the seconds to wait when there is none left. */
  take(key: string): { ok: true } | { ok: false; retryAfterSeconds: number } {
    const now = this.now();
    const bucket = this.buckets.get(key);
    const tokens = bucket === undefined ? this.perMinute : Math.min(this.perMinute, bucket.tokens + (now - bucket.at) * this.perMs);
    if (tokens < 1) {
      this.buckets.set(key, { tokens, at: now });
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / this.perMs / 1000)) };
    }
    if (bucket === undefined && this.buckets.size >= 50_000) this.prune(now);
    this.buckets.set(key, { tokens: tokens - 1, at: now });
    return { ok: true };
  }

  /** Forgets the keys whose allowance is full again: they are as if never seen. */
  private prune(now: number): void {
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + (now - bucket.at) * this.perMs >= this.perMinute) this.buckets.delete(key);
    }
  }
}

/** The API's allowances per minute (API_RATE_LIMIT, API_RATE_LIMIT_PER_ADDRESS); 0 turns one off. */
export interface ApiRateLimitConfig {
  perCredential: number;
  perAddress: number;
}

/**
 * The API's rate limits: every request that needs a token spends from its client address's allowance
 * before the token is even read (so guessing tokens is slow too), and from its credential's (a user, or
 * an API client) once the token is known. Public routes keep their own limits or signatures.
 */
export class ApiRateLimits {
  private readonly byAddress: TokenBuckets | null;
  private readonly byCredential: TokenBuckets | null;

  constructor(config: ApiRateLimitConfig, now: () => number = Date.now) {
    this.byAddress = config.perAddress > 0 ? new TokenBuckets(config.perAddress, now) : null;
    this.byCredential = config.perCredential > 0 ? new TokenBuckets(config.perCredential, now) : null;
  }

  /** Throws RateLimitedError when the request's address has used up its allowance. */
  spendAddress(request: FastifyRequest): void {
    this.spend(this.byAddress, `ip:${request.ip}`);
  }

  /** Throws RateLimitedError when the principal has used up its allowance. */
  spendCredential(principal: Principal): void {
    this.spend(this.byCredential, principal.clientId === undefined ? `user:${principal.userId}` : `client:${principal.clientId}`);
  }

  private spend(buckets: TokenBuckets | null, key: string): void {
    const taken = buckets?.take(key) ?? { ok: true };
    if (!taken.ok) throw new RateLimitedError(TOO_MANY_REQUESTS, taken.retryAfterSeconds);
  }
}
