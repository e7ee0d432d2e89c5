/**
 * A small per-process cache of answers that expire: verified access tokens (tokenVerifier.ts) and roles in
 * accounts (memberships.ts). Entries end at their own time; the oldest go first once `maxEntries` is
 * reached, so a flood of distinct keys cannot grow the process (docs/api.md, "Tokens and access").
 */
export class ExpiringCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();

  constructor(
    private readonly maxEntries: number,
    private readonly now: () => number = () => Date.now(),
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.until <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Keeps `value` until `until` (epoch ms); a time already past keeps nothing. */
  set(key: string, value: V, until: number): void {
    if (until <= this.now()) return;
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, until });
  }

  /** Forgets every entry whose key starts with `prefix`. */
  deletePrefix(prefix: string): void {
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
