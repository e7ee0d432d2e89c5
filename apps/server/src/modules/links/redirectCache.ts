import { eq, gt, inArray } from 'drizzle-orm';
import type { Database, Queryable } from '../../platform/db/client.js';
import { linkDomains, linkRecipients, links } from '../../platform/db/schema/index.js';

/** Long enough that a busy code is read once a minute; a link changed on another process is seen within it. */
const HIT_TTL_MS = 60_000;
/** Unknown codes are remembered briefly, so guessing does not turn into a query per request. */
const MISS_TTL_MS = 5_000;
const MAX_ENTRIES = 200_000;

export interface RedirectTarget {
  linkId: string;
  destination: string;
  /** The custom domain the link lives on; null: the shared domain. */
  domain: string | null;
  /** A recipient's own code of a tracked link (docs/links.md, "Contact tracking"); null: the link's code. */
  recipientId: string | null;
}

const linkTarget = { linkId: links.id, destination: links.destinationUrl, domain: linkDomains.domain };

/** The targets of these codes: links' codes and recipients' codes (two tables, one namespace). */
async function readTargets(q: Queryable, codes: readonly string[]): Promise<Map<string, RedirectTarget>> {
  const list = [...codes];
  const [own, personal] = await Promise.all([
    q
      .select({ code: links.code, ...linkTarget })
      .from(links)
      .leftJoin(linkDomains, eq(linkDomains.id, links.domainId))
      .where(inArray(links.code, list)),
    q
      .select({ code: linkRecipients.code, recipientId: linkRecipients.id, ...linkTarget })
      .from(linkRecipients)
      .innerJoin(links, eq(links.id, linkRecipients.linkId))
      .leftJoin(linkDomains, eq(linkDomains.id, links.domainId))
      .where(inArray(linkRecipients.code, list)),
  ]);
  const targets = new Map<string, RedirectTarget>();
  for (const { code, ...target } of own) targets.set(code, { ...target, recipientId: null });
  for (const { code, ...target } of personal) targets.set(code, target);
  return targets;
}

interface Entry {
  target: RedirectTarget | null;
  expires: number;
}

/** Stale codes read again in one query, at most this many a round. */
const REFRESH_BATCH = 5_000;

/**
 * Codes to destinations, loaded at start and then served from memory (docs/links.md, "Redirects").
 * A known code past its minute still answers at once while a background round reads it again with the
 * other stale ones (one query); concurrent misses for one code share one query.
 */
export class RedirectCache {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<RedirectTarget | null>>();
  private readonly stale = new Set<string>();
  private refreshing: Promise<void> | null = null;

  constructor(
    private readonly database: Database,
    private readonly now: () => number = Date.now,
  ) {}

  /** The target of a code from memory, or undefined when it must be read. */
  cached(code: string): RedirectTarget | null | undefined {
    const entry = this.entries.get(code);
    if (entry === undefined) return undefined;
    if (entry.expires > this.now()) return entry.target;
    if (entry.target === null) {
      this.entries.delete(code);
      return undefined;
    }
    this.stale.add(code);
    void this.refreshStale();
    return entry.target;
  }

  /** Loads every link (up to the cache's size), so a first click is served from memory too. */
  async warm(): Promise<number> {
    const rows = await this.database.db
      .select({ code: links.code, ...linkTarget })
      .from(links)
      .leftJoin(linkDomains, eq(linkDomains.id, links.domainId))
      .limit(MAX_ENTRIES);
    const expires = this.now() + HIT_TTL_MS;
    for (const { code, ...target } of rows) this.entries.set(code, { target: { ...target, recipientId: null }, expires });
    return rows.length;
  }

  /** Reads the stale codes again in one query; a code no longer there is forgotten. */
  private refreshStale(): Promise<void> {
    this.refreshing ??= (async () => {
      const codes = [...this.stale].slice(0, REFRESH_BATCH);
      for (const code of codes) this.stale.delete(code);
      const found = await readTargets(this.database.db, codes);
      const expires = this.now() + HIT_TTL_MS;
      for (const code of codes) {
        const target = found.get(code);
        this.entries.set(code, target === undefined ? { target: null, expires: this.now() + MISS_TTL_MS } : { target, expires });
      }
    })()
      .catch(() => undefined)
      .finally(() => {
        this.refreshing = null;
        if (this.stale.size > 0) setTimeout(() => void this.refreshStale(), 1000).unref();
      });
    return this.refreshing;
  }

  async lookup(code: string): Promise<RedirectTarget | null> {
    const hit = this.cached(code);
    if (hit !== undefined) return hit;
    let pending = this.loading.get(code);
    if (pending === undefined) {
      pending = this.read(code).finally(() => this.loading.delete(code));
      this.loading.set(code, pending);
    }
    return pending;
  }

  forget(code: string): void {
    this.entries.delete(code);
  }

  private async read(code: string): Promise<RedirectTarget | null> {
    const target = (await readTargets(this.database.db, [code])).get(code) ?? null;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(code, { target, expires: this.now() + (target === null ? MISS_TTL_MS : HIT_TTL_MS) });
    return target;
  }
}

/** How often the set of verified custom domains is read again (a domain verified on another process). */
const HOSTS_REFRESH_MS = 30_000;

/** The verified custom domains whose requests `GET /{code}` are short links. */
export class ShortHosts {
  private hosts = new Set<string>();
  private readAt = 0;
  private refreshing: Promise<void> | null = null;

  constructor(
    private readonly database: Database,
    private readonly shortDomain: string | null,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether requests to this host name are short links. Answers from memory; refreshes in the background. */
  has(host: string): boolean {
    if (this.now() - this.readAt > HOSTS_REFRESH_MS) void this.refresh();
    return host === this.shortDomain || this.hosts.has(host);
  }

  isShared(host: string): boolean {
    return host === this.shortDomain;
  }

  refresh(): Promise<void> {
    this.readAt = this.now();
    this.refreshing ??= this.database.db
      .select({ domain: linkDomains.domain })
      .from(linkDomains)
      .where(gt(linkDomains.renewAt, new Date(this.now())))
      .then((rows) => {
        this.hosts = new Set(rows.map((r) => r.domain));
      })
      .catch(() => undefined)
      .finally(() => {
        this.refreshing = null;
      });
    return this.refreshing;
  }
}
