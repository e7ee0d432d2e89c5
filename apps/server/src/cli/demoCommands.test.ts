import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openPglite, openPostgres, type Database } from '../platform/db/client.js';
import { ledgerAndBalance } from '../test/accounts.js';
import { createPhoneNumber } from '../test/phoneNumbers.js';
import { createScratchPostgres, testDatabaseKinds, type TestDatabaseKind } from '../test/databases.js';
import { runCli, type CliResult } from '../test/processes.js';
import { TRIAL_AUTO_RESPONDER_NOTE } from '../demo/seedDemo.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Where the CLI finds the database: a data directory, or a scratch PostgreSQL database (with the simulator on). */
async function storage(kind: TestDatabaseKind): Promise<{ env: Record<string, string>; open: () => Promise<Database> }> {
  if (kind === 'pglite') {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-cli-demo-'));
    cleanups.push(() => {
      fs.rmSync(dataDir, { recursive: true, force: true });
      return Promise.resolve();
    });
    return { env: { DATA_DIR: dataDir }, open: () => openPglite(dataDir) };
  }
  const scratch = await createScratchPostgres();
  cleanups.push(scratch.drop);
  return { env: { DATABASE_URL: scratch.url, SIMULATOR: 'true' }, open: () => Promise.resolve(openPostgres(scratch.url, 2)) };
}

interface Seeded {
  ok: boolean;
  accountId: string;
  alreadySeeded: boolean;
  added: Record<string, number | string | null>;
  demo: { contacts: number; countries: string[]; conversations: number; unread: number; closed: number; messages: number };
  campaign: { name: string; status: string; recipients: number; byStatus: Record<string, number>; leftOut: number } | null;
  notes: string[];
}

function parsed(result: CliResult): unknown {
  expect(result.code, result.stdout + result.stderr).toBe(0);
  return JSON.parse(result.stdout);
}

describe.each(testDatabaseKinds)('parley seed-demo (%s)', (kind) => {
  it("fills the owner's only account once, says so the second time, and refuses what it cannot seed", async () => {
    const { env, open } = await storage(kind);
    parsed(await runCli(['create-user', '--email', 'olive@roasters.test', '--password', 'Str0ng-enough!', '--verified', '--json'], env));
    const none = await runCli(['seed-demo', '--owner', 'olive@roasters.test', '--json'], env);
    expect({ code: none.code, body: JSON.parse(none.stdout) as unknown }).toEqual({
      code: 1,
      body: { ok: false, error: { code: 'no_account', message: 'olive@roasters.test has no account: create one with create-account.' } },
    });
    const { accountId } = parsed(await runCli(['create-account', '--owner', 'olive@roasters.test', '--name', 'Bean There', '--json'], env)) as {
      accountId: string;
    };
    if (kind === 'postgres') {
      // PostgreSQL gives a new account no number: the operator buys one (here, the simulator's).
      const database = await open();
      try {
        await createPhoneNumber(database.db, accountId);
      } finally {
        await database.close();
      }
    }

    const unknown = await runCli(['seed-demo', '--account', '01a2269b-c1b9-7170-9c1d-757945306954', '--json'], env);
    expect(JSON.parse(unknown.stdout)).toEqual({ ok: false, error: { code: 'not_found', message: 'The account was not found.' } });

    const first = parsed(await runCli(['seed-demo', '--owner', 'olive@roasters.test', '--json'], env)) as Seeded;
    expect(first).toMatchObject({ ok: true, accountId, alreadySeeded: false, added: { contacts: 41, lists: 1, listMembers: 13, groups: 2, templates: 4, campaigns: 1 } });
    // A trial account: no auto responder, and it says why.
    expect(first.added.autoResponders).toBe(0);
    expect(first.notes).toEqual([TRIAL_AUTO_RESPONDER_NOTE]);
    expect(first.demo).toMatchObject({ contacts: 41, countries: ['AU', 'CA', 'GB', 'US'], unread: 3, closed: 3 });
    expect(first.campaign).toEqual({ name: 'New harvest: Ethiopia Guji', status: 'done', recipients: 34, byStatus: { delivered: 34 }, leftOut: 1 });

    const text = await runCli(['seed-demo', '--account', accountId], env);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`The demo is already in "Bean There" (${accountId}): nothing was added.`);
    const again = parsed(await runCli(['seed-demo', '--account', accountId, '--json'], env)) as Seeded;
    expect(again).toMatchObject({ alreadySeeded: true, demo: first.demo, campaign: first.campaign });

    const database = await open();
    try {
      const { ledger, balance } = await ledgerAndBalance(database.db, accountId);
      expect(balance).toBe(ledger);
    } finally {
      await database.close();
    }
  }, 300_000);
});
