import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from './client.js';
import { analyzeGrownTables, grownTables, StatisticsKeeper, type Wait } from './statisticsKeeper.js';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.js';

/** The keeper's clock, driven by the test: no round runs until the test says so. */
function handClock() {
  let due: (() => void) | null = null;
  let waited: (() => void) | null = null;
  const wait: Wait = (_ms, run) => {
    due = run;
    waited?.();
    waited = null;
    return () => {
      if (due === run) due = null;
    };
  };
  return {
    wait,
    /** Whether the keeper waits for its next round. */
    get waiting() {
      return due !== null;
    },
    /** Runs the round the keeper waits for; answers once it has finished and the keeper waits again. */
    async round(): Promise<void> {
      const run = due;
      if (run === null) throw new Error('the keeper is not waiting for a round');
      due = null;
      const next = new Promise<void>((resolve) => {
        waited = resolve;
      });
      run();
      await next;
    },
  };
}

describe.each(testDatabaseKinds)('the statistics keeper on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  /** A table of its own for the test, with `rows` rows; answers its quoted name. */
  async function table(rows: number): Promise<string> {
    const name = `public.stats_${randomUUID().replaceAll('-', '')}`;
    await database.db.execute(sql.raw(`create table ${name} (id int, note text)`));
    await grow(name, rows);
    return name;
  }
  const grow = (name: string, rows: number) =>
    database.db.execute(sql.raw(`insert into ${name} select i, repeat('x', 100) from generate_series(1, ${String(rows)}) i`));
  const statsOf = async (name: string) =>
    (await queryRows<{ tuples: number }>(database.db, sql`select reltuples::int as tuples from pg_class where oid = ${name}::regclass`))[0];

  it('analyzes a table grown since its statistics were taken, and leaves it until it grows by half again', async () => {
    const name = await table(20_000);
    expect(await grownTables(database.db)).toContain(name);
    expect(await analyzeGrownTables(database.db)).toContain(name);
    expect(await statsOf(name)).toEqual({ tuples: 20_000 });
    expect(await grownTables(database.db)).not.toContain(name);

    // A fifth more: not yet.
    await grow(name, 4_000);
    expect(await grownTables(database.db)).not.toContain(name);
    // Now more than half as large again.
    await grow(name, 8_000);
    expect(await grownTables(database.db)).toContain(name);
    await database.db.execute(sql.raw(`drop table ${name}`));
  });

  it('leaves a small table alone until it has a few pages', async () => {
    const name = await table(20);
    expect(await grownTables(database.db)).not.toContain(name);
    await database.db.execute(sql.raw(`drop table ${name}`));
  });

  it('keeps the statistics in the background until stopped', async () => {
    const name = await table(0);
    const clock = handClock();
    const keeper = new StatisticsKeeper(database.db, pino({ level: 'silent' }), 20, null, clock.wait);
    keeper.start();
    await grow(name, 20_000);
    expect(await statsOf(name)).not.toEqual({ tuples: 20_000 });
    await clock.round();
    expect(await statsOf(name)).toEqual({ tuples: 20_000 });
    await keeper.stop();
    expect(clock.waiting).toBe(false);
    await database.db.execute(sql.raw(`drop table ${name}`));
  });

  // The embedded database has one session: no other transaction can hold uncommitted rows while it analyzes.
  it.skipIf(kind === 'pglite')('comes back to a table whose rows were still uncommitted when it looked', async () => {
    const name = await table(0);
    let commit!: () => void;
    const committing = new Promise<void>((resolve) => {
      commit = resolve;
    });
    let inserted!: () => void;
    const insertedRows = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    const writer = database.db.transaction(async (tx) => {
      await tx.execute(sql.raw(`insert into ${name} select i, repeat('x', 100) from generate_series(1, 20000) i`));
      inserted();
      await committing;
    });
    await insertedRows;
    // The table has all its pages, none of its rows committed.
    expect(await grownTables(database.db)).toContain(name);
    await analyzeGrownTables(database.db);
    commit();
    await writer;
    expect(await analyzeGrownTables(database.db)).toContain(name);
    expect(await statsOf(name)).toEqual({ tuples: 20_000 });
    await database.db.execute(sql.raw(`drop table ${name}`));
  });

  it('vacuums only in rounds that find the database quiet', async () => {
    const name = await table(20_000);
    await database.db.execute(sql.raw(`update ${name} set note = repeat('y', 100)`));
    // VACUUM records the pages it found all visible; ANALYZE only counts them, and nothing else sets them.
    const allVisible = async () =>
      (await queryRows<{ pages: number }>(database.db, sql`select relallvisible::int as pages from pg_class where oid = ${name}::regclass`))[0]
        ?.pages ?? 0;
    let quiet = false;
    let asked = 0;
    const clock = handClock();
    const keeper = new StatisticsKeeper(
      database.db,
      pino({ level: 'silent' }),
      20,
      () => {
        asked += 1;
        return Promise.resolve(quiet);
      },
      clock.wait,
    );
    keeper.start();
    for (let round = 0; round < 5; round += 1) await clock.round();
    expect(asked).toBe(5);
    expect(await allVisible()).toBe(0);

    quiet = true;
    await clock.round();
    await keeper.stop();
    expect(await allVisible()).toBeGreaterThan(0);
    await database.db.execute(sql.raw(`drop table ${name}`));
  });
});
