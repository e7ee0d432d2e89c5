import { describe, expect, it } from 'vitest';
import { ledgerAndBalance } from '../test/accounts.js';
import { afterTest, cliStorage, runCli, runCommand } from '../test/cli.js';
import { createPhoneNumber } from '../test/phoneNumbers.js';
import { testDatabaseKinds } from '../test/databases.js';
import type { CliResult } from '../test/processes.js';
import { TRIAL_AUTO_RESPONDER_NOTE } from '../demo/seedDemo.js';

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
    // With the simulator on, on PostgreSQL too.
    const storage = await cliStorage(kind, { prefix: 'parley-cli-demo-', env: { postgres: { SIMULATOR: 'true' } } });
    afterTest(storage.remove);
    const { env, open } = storage;
    parsed(await runCommand(['create-user', '--email', 'olive@roasters.test', '--password', 'Str0ng-enough!', '--verified', '--json'], env));
    const none = await runCommand(['seed-demo', '--owner', 'olive@roasters.test', '--json'], env);
    expect({ code: none.code, body: JSON.parse(none.stdout) as unknown }).toEqual({
      code: 1,
      body: { ok: false, error: { code: 'no_account', message: 'olive@roasters.test has no account: create one with create-account.' } },
    });
    const { accountId } = parsed(await runCommand(['create-account', '--owner', 'olive@roasters.test', '--name', 'Bean There', '--json'], env)) as {
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

    const unknown = await runCommand(['seed-demo', '--account', '01a2269b-c1b9-7170-9c1d-757945306954', '--json'], env);
    expect(JSON.parse(unknown.stdout)).toEqual({ ok: false, error: { code: 'not_found', message: 'The account was not found.' } });

    // The CLI's own process: its exit code and the JSON it prints.
    const first = parsed(await runCli(['seed-demo', '--owner', 'olive@roasters.test', '--json'], env)) as Seeded;
    expect(first).toMatchObject({ ok: true, accountId, alreadySeeded: false, added: { contacts: 41, lists: 1, listMembers: 13, groups: 2, templates: 4, campaigns: 1 } });
    // A trial account: no auto responder, and it says why.
    expect(first.added.autoResponders).toBe(0);
    expect(first.notes).toEqual([TRIAL_AUTO_RESPONDER_NOTE]);
    expect(first.demo).toMatchObject({ contacts: 41, countries: ['AU', 'CA', 'GB', 'US'], unread: 3, closed: 3 });
    expect(first.campaign).toEqual({ name: 'New harvest: Ethiopia Guji', status: 'done', recipients: 34, byStatus: { delivered: 34 }, leftOut: 1 });

    const text = await runCommand(['seed-demo', '--account', accountId], env);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`The demo is already in "Bean There" (${accountId}): nothing was added.`);
    const again = parsed(await runCommand(['seed-demo', '--account', accountId, '--json'], env)) as Seeded;
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
