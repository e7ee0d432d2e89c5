import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../platform/db/schema/index.js';
import { cliStorage, ok, refusal, runCli, runCommand, type CliStorage } from '../test/cli.js';
import { createUser } from '../test/factories.js';
import { testDatabaseKinds } from '../test/databases.js';

describe.each(testDatabaseKinds)('parley operator (%s)', (kind) => {
  let storage: CliStorage;
  beforeAll(async () => {
    storage = await cliStorage(kind, { prefix: 'parley-cli-operators-' });
    // A scratch PostgreSQL database is migrated by the first command line.
    expect((await runCommand(['migrate'], storage.env)).code).toBe(0);
    const database = await storage.open();
    try {
      await createUser(database.db, { email: 'olga@example.com', firstName: 'Olga', lastName: 'Op' });
    } finally {
      await database.close();
    }
  });
  afterAll(() => storage.remove());

  const operatorFlag = async (email: string): Promise<boolean | undefined> => {
    const database = await storage.open();
    try {
      const [row] = await database.db.select({ operator: users.operator }).from(users).where(eq(users.email, email));
      return row?.operator;
    } finally {
      await database.close();
    }
  };

  it('makes a person an operator, lists them and takes it back', async () => {
    // The CLI's own process: its exit code and its text.
    const added = await runCli(['operator', 'add', 'Olga@Example.com'], storage.env);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout.trim()).toBe('olga@example.com is now an operator.');
    expect(await operatorFlag('olga@example.com')).toBe(true);

    const listed = await ok<{ operators: { email: string; name: string }[] }>(['operator', 'list'], storage.env);
    expect(listed.operators).toEqual([expect.objectContaining({ email: 'olga@example.com', name: 'Olga Op' })]);

    const removed = await ok<{ operator: boolean }>(['operator', 'remove', 'olga@example.com'], storage.env);
    expect(removed.operator).toBe(false);
    expect(await operatorFlag('olga@example.com')).toBe(false);
    expect((await ok<{ operators: unknown[] }>(['operator', 'list'], storage.env)).operators).toEqual([]);
  });

  it('refuses an unknown person, a missing address and an unknown action', async () => {
    expect(refusal(await runCommand(['operator', 'add', 'nobody@example.com', '--json'], storage.env))).toEqual({
      code: 1,
      error: { code: 'not_found', message: 'No user has the address nobody@example.com: they sign up first.' },
    });
    expect(refusal(await runCommand(['operator', 'add', '--json'], storage.env)).code).toBe(2);
    expect(refusal(await runCommand(['operator', 'promote', 'olga@example.com', '--json'], storage.env)).error.code).toBe('invalid_arguments');
  });
});
