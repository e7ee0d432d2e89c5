import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Database } from './client.js';
import { dueForVacuum, tableSizes, vacuumGrownTables } from './tableVacuum.js';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.js';

describe('dueForVacuum', () => {
  it('takes a table of a megabyte or more the first time, a smaller one never', () => {
    expect(dueForVacuum(128, undefined)).toBe(true);
    expect(dueForVacuum(127, undefined)).toBe(false);
  });

  it('takes it again once grown by a fifth, and by at least a megabyte', () => {
    expect(dueForVacuum(1_000, 1_000)).toBe(false);
    expect(dueForVacuum(1_199, 1_000)).toBe(false);
    expect(dueForVacuum(1_200, 1_000)).toBe(true);
    // A fifth of a small table is not enough.
    expect(dueForVacuum(240, 200)).toBe(false);
    expect(dueForVacuum(328, 200)).toBe(true);
  });
});

describe.each(testDatabaseKinds)('vacuuming grown tables on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  /** A table of its own with `rows` rows of about 130 bytes, every row then updated once; its quoted name. */
  async function tableWithDeadRows(rows: number): Promise<string> {
    const name = `public.vacuum_${randomUUID().replaceAll('-', '')}`;
    await database.db.execute(sql.raw(`create table ${name} (id int primary key, note text)`));
    await database.db.execute(sql.raw(`insert into ${name} select i, repeat('x', 100) from generate_series(1, ${String(rows)}) i`));
    await database.db.execute(sql.raw(`update ${name} set note = repeat('y', 100)`));
    return name;
  }
  const pagesOf = async (name: string): Promise<number> =>
    (await tableSizes(database.db)).find((t) => t.name === name)?.pages ?? 0;
  const always = () => Promise.resolve(true);

  it('vacuums a grown table, so new rows take the dead ones\' space, and leaves it until it grows again', async () => {
    const name = await tableWithDeadRows(20_000);
    const pages = await pagesOf(name);
    expect(pages).toBeGreaterThanOrEqual(128);
    const vacuumed = new Map<string, number>();

    expect(await vacuumGrownTables(database.db, vacuumed, always)).toContain(name);
    expect(vacuumed.get(name)).toBe(pages);
    // 20,000 new rows fit where the 20,000 old versions were: the table does not grow (unvacuumed, it would
    // by half).
    await database.db.execute(sql.raw(`insert into ${name} select i, repeat('z', 100) from generate_series(20001, 40000) i`));
    expect(await pagesOf(name)).toBeLessThan(pages * 1.05);
    expect(await vacuumGrownTables(database.db, vacuumed, always)).not.toContain(name);

    // Updated twice more with nothing reclaimed in between: grown by more than a fifth, vacuumed again.
    await database.db.execute(sql.raw(`update ${name} set note = repeat('a', 100)`));
    await database.db.execute(sql.raw(`update ${name} set note = repeat('b', 100)`));
    expect(await pagesOf(name)).toBeGreaterThan(pages * 1.2);
    expect(await vacuumGrownTables(database.db, vacuumed, always)).toContain(name);
    await database.db.execute(sql.raw(`drop table ${name}`));
  });

  it('leaves tables under a megabyte alone', async () => {
    const name = await tableWithDeadRows(200);
    expect(await vacuumGrownTables(database.db, new Map(), always)).not.toContain(name);
    await database.db.execute(sql.raw(`drop table ${name}`));
  });

  it('stops before the next table once the database is no longer quiet', async () => {
    const first = await tableWithDeadRows(12_000);
    const second = await tableWithDeadRows(12_000);
    const vacuumed = new Map<string, number>();
    let asked = 0;
    const done = await vacuumGrownTables(database.db, vacuumed, () => {
      asked += 1;
      return Promise.resolve(false);
    });
    expect(done).toHaveLength(1);
    expect(asked).toBe(1);
    // The other is still due and taken the next time.
    const rest = [first, second].filter((name) => !done.includes(name));
    expect(await vacuumGrownTables(database.db, vacuumed, always)).toEqual(expect.arrayContaining(rest));
    await database.db.execute(sql.raw(`drop table ${first}`));
    await database.db.execute(sql.raw(`drop table ${second}`));
  });
});
