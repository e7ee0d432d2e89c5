/**
 * A fixed-window counter per key (the client address), kept in this process's memory. Each process
 * counts on its own, so N web processes allow up to N times the limit; the per-user lockout, which
 * lives in the database, is what protects an account across processes.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one attempt; false when the key is over its limit in the current window. */
  take(key: string): boolean {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || now - window.start >= this.windowMs) {
      if (this.windows.size > 10_000) this.prune(now);
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count += 1;
    return window.count <= this.limit;
  }

  /** True when the key has used up its limit in the current window; counts nothing. */
  isOver(key: string): boolean {
    const window = this.windows.get(key);
    return window !== undefined && this.now() - window.start < this.windowMs && window.count >= this.limit;
  }

  private prune(now: number): void {
    for (const [key, window] of this.windows) {
      if (now - window.start >= this.windowMs) this.windows.delete(key);
    }
  }
}
