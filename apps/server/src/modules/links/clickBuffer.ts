import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { arrayLiteral, type Database } from '../../platform/db/client.js';

/** How often buffered clicks are written: a process killed loses at most this much (docs/links.md). */
export const CLICK_FLUSH_MS = 1000;

interface Counts {
  people: number;
  bots: number;
}

/**
 * Clicks counted in memory on the redirect's path and written in one UPDATE a second, so a redirect
 * never waits on the database. A failed write puts its counts back for the next round: each click is
 * written once.
 */
export class ClickBuffer {
  private pending = new Map<string, Counts>();
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly database: Database,
    private readonly log: Logger,
  ) {}

  add(linkId: string, bot: boolean): void {
    const counts = this.pending.get(linkId) ?? { people: 0, bots: 0 };
    if (bot) counts.bots += 1;
    else counts.people += 1;
    this.pending.set(linkId, counts);
    this.arm();
  }

  /** Writes the last counts; nothing is retried after (the database is about to close). */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
  }

  private arm(): void {
    if (!this.closed) this.timer ??= setTimeout(() => void this.flush(), CLICK_FLUSH_MS).unref();
  }

  /** Writes what is buffered (after any write under way). */
  flush(): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.writing = this.writing.then(() => this.write());
    return this.writing;
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    const ids = [...batch.keys()];
    const counts = [...batch.values()];
    try {
      // Three array parameters, not a row of parameters per link: building a statement of thousands of
      // parameters would hold the event loop, and the redirects with it.
      await this.database.db.execute(
        sql`update links set clicks = links.clicks + v.people, bot_clicks = links.bot_clicks + v.bots
              from unnest(${arrayLiteral(ids)}::uuid[], ${arrayLiteral(counts.map((c) => c.people))}::bigint[],
                          ${arrayLiteral(counts.map((c) => c.bots))}::bigint[]) as v(id, people, bots)
             where links.id = v.id`,
      );
    } catch (error) {
      this.log.warn({ err: error, links: batch.size }, 'click counts not written; kept for the next round');
      for (const [id, c] of batch) {
        const now = this.pending.get(id) ?? { people: 0, bots: 0 };
        this.pending.set(id, { people: now.people + c.people, bots: now.bots + c.bots });
      }
      this.arm();
    }
  }
}
