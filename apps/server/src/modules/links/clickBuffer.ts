import { sql, type SQL } from 'drizzle-orm';
import type { Logger } from 'pino';
import { arrayLiteral, type Database } from '../../platform/db/client.js';

/** How often buffered clicks are written: a process killed loses at most this much (docs/links.md). */
export const CLICK_FLUSH_MS = 1000;

interface Counts {
  people: number;
  bots: number;
  /** A person's first click of the batch (ms), for a recipient's first click; 0: none yet. */
  firstAt: number;
}

const none = (): Counts => ({ people: 0, bots: 0, firstAt: 0 });

function merge(into: Map<string, Counts>, from: Map<string, Counts>): void {
  for (const [id, c] of from) {
    const now = into.get(id) ?? none();
    const firstAt = now.firstAt === 0 ? c.firstAt : c.firstAt === 0 ? now.firstAt : Math.min(now.firstAt, c.firstAt);
    into.set(id, { people: now.people + c.people, bots: now.bots + c.bots, firstAt });
  }
}

function count(into: Map<string, Counts>, id: string, bot: boolean, at: number): void {
  const counts = into.get(id) ?? none();
  if (bot) counts.bots += 1;
  else {
    counts.people += 1;
    if (counts.firstAt === 0) counts.firstAt = at;
  }
  into.set(id, counts);
}

/**
 * Clicks counted in memory on the redirect's path and written in one UPDATE a second (two when recipients'
 * codes were clicked), so a redirect never waits on the database. A failed write puts its counts back for
 * the next round: each click is written once.
 */
export class ClickBuffer {
  private pending = new Map<string, Counts>();
  private pendingRecipients = new Map<string, Counts>();
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly database: Database,
    private readonly log: Logger,
  ) {}

  /** A click of a link; `recipientId` when it came by a recipient's own code (it counts on the link too). */
  add(linkId: string, bot: boolean, recipientId: string | null = null, at: number = Date.now()): void {
    count(this.pending, linkId, bot, at);
    if (recipientId !== null) count(this.pendingRecipients, recipientId, bot, at);
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
    if (this.pending.size === 0 && this.pendingRecipients.size === 0) return;
    const batch = this.pending;
    const recipients = this.pendingRecipients;
    this.pending = new Map();
    this.pendingRecipients = new Map();
    try {
      // Links alone: one statement. With recipients' counts, one transaction: the link's and its
      // recipients' counts are written together or kept together.
      if (recipients.size === 0) await this.database.db.execute(linkCounts(batch));
      else {
        await this.database.db.transaction(async (tx) => {
          if (batch.size > 0) await tx.execute(linkCounts(batch));
          await tx.execute(recipientCounts(recipients));
        });
      }
    } catch (error) {
      this.log.warn({ err: error, links: batch.size, recipients: recipients.size }, 'click counts not written; kept for the next round');
      merge(this.pending, batch);
      merge(this.pendingRecipients, recipients);
      this.arm();
    }
  }
}

// Array parameters, not a row of parameters per link: building a statement of thousands of parameters
// would hold the event loop, and the redirects with it.
function linkCounts(batch: Map<string, Counts>): SQL {
  const counts = [...batch.values()];
  return sql`update links set clicks = links.clicks + v.people, bot_clicks = links.bot_clicks + v.bots
               from unnest(${arrayLiteral([...batch.keys()])}::uuid[], ${arrayLiteral(counts.map((c) => c.people))}::bigint[],
                           ${arrayLiteral(counts.map((c) => c.bots))}::bigint[]) as v(id, people, bots)
              where links.id = v.id`;
}

function recipientCounts(batch: Map<string, Counts>): SQL {
  const counts = [...batch.values()];
  // 0: no person's click in the batch (a null in the array literal would need quoting).
  return sql`update link_recipients r set clicks = r.clicks + v.people, bot_clicks = r.bot_clicks + v.bots,
                    first_click_at = coalesce(r.first_click_at, case when v.first_ms > 0 then to_timestamp(v.first_ms / 1000.0) end)
               from unnest(${arrayLiteral([...batch.keys()])}::uuid[], ${arrayLiteral(counts.map((c) => c.people))}::bigint[],
                           ${arrayLiteral(counts.map((c) => c.bots))}::bigint[], ${arrayLiteral(counts.map((c) => c.firstAt))}::bigint[])
                    as v(id, people, bots, first_ms)
              where r.id = v.id`;
}
