import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMembers, accounts, phoneNumbers, users } from '../platform/db/schema/index.js';
import { ledgerAndBalance } from '../test/accounts.js';
import { cliStorage, runCli, runCommand, type CliStorage } from '../test/cli.js';
import type { CliResult } from '../test/processes.js';

type Result = CliResult;
const cli = runCommand;

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const failure = (r: Result) => JSON.parse(r.stdout) as { ok: false; error: { code: string; message: string } };

describe('parley create-user and create-account', () => {
  let storage: CliStorage;
  let env: Record<string, string>;
  beforeAll(async () => {
    storage = await cliStorage('pglite', { prefix: 'parley-cli-accounts-' });
    env = { ...storage.env, TRIAL_CREDIT: '7.25' };
  });
  afterAll(() => storage.remove());

  it('creates a user, then a trial account it administers, with the trial credit in the ledger', async () => {
    // The CLI's own process: its exit code, the JSON it prints and nothing on stderr.
    const made = await runCli(
      ['create-user', '--email', 'Owner@Example.com', '--password', 'Str0ng-enough!', '--first-name', 'Olive', '--verified', '--json'],
      env,
    );
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    const { ok, userId } = JSON.parse(made.stdout) as { ok: boolean; userId: string };
    expect(ok).toBe(true);
    expect(userId).toMatch(uuid);

    const text = await cli(['create-user', '--email', 'second@example.com', '--password', 'Str0ng-enough!'], env);
    expect(text.code).toBe(0);
    expect(text.stdout.trim()).toMatch(uuid);

    const account = await runCli(['create-account', '--owner', 'owner@example.com', '--name', 'Olive Dental', '--country', 'ca', '--json'], env);
    expect(account.code).toBe(0);
    const { accountId } = JSON.parse(account.stdout) as { accountId: string };
    expect(accountId).toMatch(uuid);

    const database = await storage.open();
    try {
      const [user] = await database.db.select().from(users).where(eq(users.id, userId));
      expect(user).toMatchObject({ email: 'owner@example.com', firstName: 'Olive', lastName: '' });
      expect(user?.emailVerifiedAt).toBeInstanceOf(Date);
      expect(user?.passwordHash).toMatch(/^\$argon2id\$/);
      const [row] = await database.db.select().from(accounts).where(eq(accounts.id, accountId));
      expect(row).toMatchObject({ name: 'Olive Dental', planId: 'trial', defaultCountry: 'CA', balance: '7.2500' });
      const members = await database.db.select().from(accountMembers).where(eq(accountMembers.accountId, accountId));
      expect(members).toEqual([expect.objectContaining({ userId, role: 'Administrator' })]);
      expect(await ledgerAndBalance(database.db, accountId)).toEqual({ ledger: '7.2500', balance: '7.2500' });
      // Embedded with the simulator, as in the app: a number in the account's country to text from at once.
      const numbers = await database.db.select().from(phoneNumbers).where(eq(phoneNumbers.accountId, accountId));
      expect(numbers).toEqual([expect.objectContaining({ carrier: 'simulator', status: 'active', country: 'CA' })]);
      expect(numbers[0]?.number).toMatch(/^\+1\d{10}$/);
    } finally {
      await database.close();
    }
  });

  it('refuses a weak password, a bad or taken e-mail, an unknown owner and missing options', async () => {
    const weak = await cli(['create-user', '--email', 'weak@example.com', '--password', 'short', '--json'], env);
    expect(weak.code).toBe(2);
    expect(failure(weak).error.code).toBe('weak_password');
    expect(failure(weak).error.message).toContain('Password is too weak');

    const badEmail = await cli(['create-user', '--email', 'nope', '--password', 'Str0ng-enough!', '--json'], env);
    expect(failure(badEmail).error).toEqual({ code: 'invalid_email', message: 'Invalid email address' });

    await cli(['create-user', '--email', 'taken@example.com', '--password', 'Str0ng-enough!'], env);
    const taken = await cli(['create-user', '--email', 'TAKEN@example.com', '--password', 'Str0ng-enough!', '--json'], env);
    expect(taken.code).toBe(1);
    expect(failure(taken).error.code).toBe('email_taken');

    const unknown = await cli(['create-account', '--owner', 'nobody@example.com', '--name', 'X', '--json'], env);
    expect(unknown.code).toBe(1);
    expect(failure(unknown).error).toEqual({ code: 'unknown_owner', message: 'No user has the email nobody@example.com.' });

    const noName = await cli(['create-account', '--owner', 'taken@example.com'], env);
    expect(noName.code).toBe(2);
    expect(noName.stderr).toContain('--name is required.');

    const country = await cli(['create-account', '--owner', 'taken@example.com', '--name', 'X', '--country', 'FR', '--json'], env);
    expect(failure(country).error).toEqual({ code: 'invalid_country', message: 'Country is not valid' });

    const plan = await cli(['create-account', '--owner', 'taken@example.com', '--name', 'X', '--plan', 'platinum', '--json'], env);
    expect(plan.code).toBe(2);
    expect(failure(plan).error).toEqual({ code: 'unknown_plan', message: 'No plan has the id platinum. Plans: trial, starter, growth, scale.' });
  });

  it('creates an account on the plan the operator names, without the trial credit', async () => {
    await cli(['create-user', '--email', 'paid@example.com', '--password', 'Str0ng-enough!', '--verified'], env);
    const made = await cli(['create-account', '--owner', 'paid@example.com', '--name', 'Paid Books', '--plan', 'Starter', '--json'], env);
    expect(made.code).toBe(0);
    const { accountId } = JSON.parse(made.stdout) as { accountId: string };
    const database = await storage.open();
    try {
      const [row] = await database.db.select().from(accounts).where(eq(accounts.id, accountId));
      expect(row).toMatchObject({ name: 'Paid Books', planId: 'starter', balance: '0.0000' });
      expect(await ledgerAndBalance(database.db, accountId)).toEqual({ ledger: '0.0000', balance: '0.0000' });
    } finally {
      await database.close();
    }
  });
});
