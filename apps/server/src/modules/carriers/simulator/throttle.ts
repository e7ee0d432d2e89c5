/**
 * Messages per second per business number, as a carrier enforces it: a token bucket per number holding
 * up to one second's worth. It lives in the process, so N processes sending from one number together
 * allow up to N times the rate; the engine's own per-number gate (phone_numbers.nextDispatchAt) is what
 * keeps a deployment in step, this only shows what a carrier's throttle looks like.
 */
export class SubmitThrottle {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  /** Takes one token for `number`; false when the number is over its rate right now. */
  take(number: string, perSecond: number, nowMs: number): boolean {
    const bucket = this.buckets.get(number);
    if (!bucket) {
      this.buckets.set(number, { tokens: perSecond - 1, at: nowMs });
      return true;
    }
    const elapsed = Math.max(0, nowMs - bucket.at);
    bucket.tokens = Math.min(perSecond, bucket.tokens + (elapsed * perSecond) / 1000);
    bucket.at = nowMs;
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  /** Forgets numbers that have been quiet long enough to be full again (keeps the map small). */
  prune(nowMs: number): void {
    for (const [number, bucket] of this.buckets) {
      if (nowMs - bucket.at > 60_000) this.buckets.delete(number);
    }
  }
}
