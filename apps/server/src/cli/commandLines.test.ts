import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMembers, users } from '../platform/db/schema/index.js';
import { cliStorage, type CliStorage } from '../test/cli.js';
import { testConfig } from '../test/config.js';
import { runCommandLines } from './commands.js';
import { databasePerCommand, heldDatabase } from './options.js';

/* Several command lines in one process on one opening of the embedded database (the browser tests' setup). */

const password = 'Str0ng-enough!';

describe('parley command lines run together', () => {
  let storage: CliStorage;
  beforeAll(async () => {
    storage = await cliStorage('pglite', { prefix: 'parley-cli-lines-' });
  });
  afterAll(() => storage.remove());

  const run = async (lines: string[][]) => {
    const answers: string[] = [];
    const code = await runCommandLines(lines, storage.env, process.cwd(), {
      stdout(text) {
        answers.push(text);
      },
      stderr() {},
    });
    return { code, answers: answers.map((a) => JSON.parse(a) as { ok: boolean; userId?: string; accountId?: string; error?: { code: string } }) };
  };

  it('runs each line on the one database, a later line seeing what an earlier one wrote, and then frees it', async () => {
    const result = await run([
      ['create-user', '--email', 'lines@example.com', '--password', password, '--verified', '--json'],
      ['create-account', '--owner', 'lines@example.com', '--name', 'Lines Bakery', '--json'],
    ]);
    expect(result.code).toBe(0);
    expect(result.answers.map((a) => a.ok)).toEqual([true, true]);
    // The embedded database allows one process at a time: the test can open it only if the lines closed it.
    const database = await storage.open();
    try {
      const [member] = await database.db.select().from(accountMembers).where(eq(accountMembers.accountId, result.answers[1]?.accountId ?? ''));
      expect(member).toMatchObject({ userId: result.answers[0]?.userId, role: 'Administrator' });
    } finally {
      await database.close();
    }
  });

  it('stops at the first line refused, answers its code and runs none after it', async () => {
    const result = await run([
      ['create-user', '--email', 'first@example.com', '--password', password, '--json'],
      ['create-user', '--email', 'first@example.com', '--password', password, '--json'],
      ['create-user', '--email', 'never@example.com', '--password', password, '--json'],
    ]);
    expect(result.code).toBe(1);
    expect(result.answers).toEqual([expect.objectContaining({ ok: true }), { ok: false, error: expect.objectContaining({ code: 'email_taken' }) as unknown }]);
    const database = await storage.open();
    try {
      expect(await database.db.select({ id: users.id }).from(users).where(eq(users.email, 'never@example.com'))).toEqual([]);
    } finally {
      await database.close();
    }
  });

  it('lends the same database to every line when held, and a new one to each command otherwise', async () => {
    const config = testConfig(storage.env);
    const held = heldDatabase();
    try {
      const lender = held.lenderFor(config);
      const first = await lender.withDatabase((database) => Promise.resolve(database));
      const second = await held.lenderFor(config).withDatabase((database) => Promise.resolve(database));
      expect(second).toBe(first);
    } finally {
      await held.close();
    }
    const once = databasePerCommand(config);
    const a = await once.withDatabase((database) => Promise.resolve(database));
    const b = await once.withDatabase((database) => Promise.resolve(database));
    expect(b).not.toBe(a);
  });
});
