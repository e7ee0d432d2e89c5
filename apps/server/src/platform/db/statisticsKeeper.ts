import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { queryRows, type Db } from './client.js';
import { vacuumGrownTables } from './tableVacuum.js';

/*
 * The embedded database runs PostgreSQL in single-user mode: there is no autovacuum, and the statistics
 * counters (pg_stat_user_tables) stay at zero. The planner's statistics would stay as the last ANALYZE
 * left them, so a table that grew from nothing keeps being planned as empty. During a campaign the
 * conversation lookup then hashed every conversation of the account for each batch (46 ms with 30,000)
 * instead of probing the index for the batch's contacts (1.3 ms).
 *
 * The keeper does autovacuum's analyze part. Every few seconds it compares each table's size on disk with
 * the size its last ANALYZE recorded (pg_class.relpages) and analyzes those grown by half (and by at least
 * a few pages), so a growing table is analyzed a few times per tenfold growth. ANALYZE reads a bounded
 * sample (below), so each takes about 10 ms whatever the table's size; it runs as background work (the
 * caller starts the keeper in `inBackground`). PostgreSQL's own autovacuum does this there.
 *
 * Given a way to tell that the database is quiet, it also does the vacuum part (tableVacuum.ts) in rounds
 * that find it so.
 *
 * ANALYZE counts only committed rows but records the table's whole size, uncommitted pages included. An
 * ANALYZE that ran while another session was still inserting would leave the table's statistics near empty
 * with a size that no longer looks grown, and the keeper would not come back to it until it grew by half
 * again. So each ANALYZE first takes a SHARE lock without waiting: it is refused while any transaction holds
 * uncommitted writes to the table, and the table, still grown, is analyzed in a later round. (The embedded
 * database has one session, so there the lock is always free; on PostgreSQL autovacuum does this work, and
 * the keeper runs only in tests there.)
 */

/** Grown by this factor since the last ANALYZE. */
const GROWTH = 1.5;
/** And by at least this many pages (8 kB each): small tables are left alone until they matter. */
const MIN_GROWTH_PAGES = 8;
const CHECK_INTERVAL_MS = 5000;
/** SQL state of a lock refused by NOWAIT. */
const LOCK_NOT_AVAILABLE = '55P03';

/** Runs `run` once after `ms` milliseconds; answers a function that cancels it. */
export type Wait = (ms: number, run: () => void) => () => void;

/** The process's timers, not holding the process open. */
const realWait: Wait = (ms, run) => {
  const timer = setTimeout(run, ms);
  timer.unref();
  return () => {
    clearTimeout(timer);
  };
};

/** The tables grown since their statistics were taken, as quoted names. */
export async function grownTables(db: Db): Promise<string[]> {
  const rows = await queryRows<{ name: string }>(
    db,
    sql`select format('%I.%I', n.nspname, c.relname) as name
          from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where c.relkind = 'r' and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%'
           and pg_relation_size(c.oid) / current_setting('block_size')::int
               > greatest(c.relpages * ${GROWTH}::float8, c.relpages + ${MIN_GROWTH_PAGES}::int)
         order by c.relpages desc`,
  );
  return rows.map((r) => r.name);
}

/**
 * Statistics target of the keeper's ANALYZE: a sample of 3,000 rows (at the default, 100, it is 30,000),
 * about 10 ms a table whatever its size, where 100 took 100 ms or more of the one session. Ten
 * most-common values and histogram buckets a column are plenty for the plans an embedded deployment needs;
 * its row counts are exact enough either way.
 */
const STATISTICS_TARGET = 10;

function isLockNotAvailable(error: unknown): boolean {
  const cause = error instanceof Error && 'cause' in error ? error.cause : undefined;
  return [error, cause].some((e) => typeof e === 'object' && e !== null && 'code' in e && e.code === LOCK_NOT_AVAILABLE);
}

/**
 * Analyzes the grown tables, each in a short transaction of its own, skipping those with uncommitted writes
 * (above); answers the names analyzed.
 */
export async function analyzeGrownTables(db: Db): Promise<string[]> {
  const analyzed: string[] = [];
  for (const name of await grownTables(db)) {
    try {
      await db.transaction(async (tx) => {
        await tx.execute(sql.raw(`set local default_statistics_target = ${String(STATISTICS_TARGET)}`));
        // The name comes from pg_class through format('%I'): quoted, never user input.
        await tx.execute(sql.raw(`lock table ${name} in share mode nowait`));
        await tx.execute(sql.raw(`analyze ${name}`));
      });
      analyzed.push(name);
    } catch (error) {
      if (!isLockNotAvailable(error)) throw error;
    }
  }
  return analyzed;
}

/** Checks every few seconds until stopped; a failed check is logged and the next one tries again. */
export class StatisticsKeeper {
  private cancel: (() => void) | null = null;
  private round: Promise<void> | null = null;
  private stopped = false;
  /** Each table's size in pages after this keeper last vacuumed it. */
  private readonly vacuumed = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    private readonly intervalMs = CHECK_INTERVAL_MS,
    /** Whether VACUUM may hold the session now; null: never vacuum. */
    private readonly quiet: (() => Promise<boolean>) | null = null,
    /** The clock between rounds; tests drive it by hand. */
    private readonly wait: Wait = realWait,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule();
  }

  /** Lets the check in progress finish, then stops. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.cancel?.();
    this.cancel = null;
    await this.round;
  }

  private async keep(): Promise<void> {
    const analyzed = await analyzeGrownTables(this.db);
    if (analyzed.length > 0) this.log.debug({ analyzed }, 'statistics refreshed');
    const quiet = this.quiet;
    if (quiet === null || this.stopped || !(await quiet())) return;
    const vacuumed = await vacuumGrownTables(this.db, this.vacuumed, () => (this.stopped ? Promise.resolve(false) : quiet()));
    if (vacuumed.length > 0) this.log.info({ vacuumed }, 'dead rows reclaimed');
  }

  private schedule(): void {
    if (this.stopped) return;
    this.cancel = this.wait(this.intervalMs, () => {
      this.cancel = null;
      this.round = this.keep()
        .catch((error: unknown) => {
          this.log.warn({ err: error }, 'statistics or vacuum round failed');
        })
        .finally(() => {
          this.round = null;
          this.schedule();
        });
    });
  }
}
