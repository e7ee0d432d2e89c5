import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './client.js';
import { runPrepared, usePreparedStatements } from './preparedStatements.js';
import { accounts } from './schema/index.js';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.js';
import { createAccount } from '../../test/factories.js';

describe.each(testDatabaseKinds)('prepared hot statements on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });
  afterEach(() => {
    usePreparedStatements(true);
  });

  const nameOf = (id: string) => runPrepared('account_name', database.db.select({ name: accounts.name }).from(accounts).where(sql`${accounts.id} = ${id}`));
  const statusOf = (id: string) =>
    runPrepared('account_name', database.db.select({ status: accounts.status }).from(accounts).where(sql`${accounts.id} = ${id}`));

  it('answers each call with its own values, and two shapes of one call site apart', async () => {
    const [a, b] = [await createAccount(database.db), await createAccount(database.db)];
    for (let i = 0; i < 3; i++) {
      expect(await nameOf(a.id)).toEqual([{ name: a.name }]);
      expect(await nameOf(b.id)).toEqual([{ name: b.name }]);
      expect(await statusOf(a.id)).toEqual([{ status: 'active' }]);
    }
  });

  it('answers the same with them turned off', async () => {
    const account = await createAccount(database.db);
    usePreparedStatements(false);
    expect(await nameOf(account.id)).toEqual([{ name: account.name }]);
    expect(await statusOf(account.id)).toEqual([{ status: 'active' }]);
  });
});
