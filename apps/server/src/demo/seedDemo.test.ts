import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkE164 } from '@parley/shared';
import { seedPlans } from '../modules/billing/plans.js';
import { inventoryCountryOf } from '../modules/carriers/simulator/inventory.js';
import { campaignJobReport } from '../modules/campaigns/campaignJobReport.js';
import { creditAccount } from '../modules/billing/ledger.js';
import { queryRows, type Database } from '../platform/db/client.js';
import { accountTransactions, autoResponders, contactGroups, groupUsers, listMembers, simulatorSettings, templates } from '../platform/db/schema/index.js';
import { ledgerAndBalance } from '../test/accounts.js';
import { testConfig } from '../test/config.js';
import { testDatabaseKinds } from '../test/databases.js';
import { createAccount, createUser } from '../test/factories.js';
import { useLedgerCheckedDatabase } from '../test/ledgerCheckedDatabase.js';
import { silentLogger } from '../test/logger.js';
import { createPhoneNumber } from '../test/phoneNumbers.js';
import { coverDemoCost, demoCost } from './demoBalance.js';
import { demoContacts } from './demoData.js';
import { demoPhones, NO_SIMULATOR_NUMBER_MESSAGE, seedDemo, SIMULATOR_NEEDED_MESSAGE, TRIAL_AUTO_RESPONDER_NOTE } from './seedDemo.js';

const config = testConfig({ SIMULATOR: 'true' });

describe.each(testDatabaseKinds)('seed-demo on %s', (kind) => {
  let database: Database;
  const seeded: string[] = [];
  // Whatever a test did, every account's balance is still the sum of its ledger.
  useLedgerCheckedDatabase(kind, (opened) => (database = opened), seeded);

  beforeAll(async () => {
    await seedPlans(database.db);
    // A fast network that fails a quarter of what it is sent, with its usual error codes: the report shows
    // what the simulator made of the campaign, failures included.
    await database.db
      .insert(simulatorSettings)
      .values({ id: 1, latencyMs: 20, failureRate: '0.25', messagesPerSecond: 50, errorCodes: [
        { code: '30003', text: 'Unreachable destination handset', stage: 'delivery' },
        { code: '21610', text: 'Attempt to send to unsubscribed recipient', stage: 'submit' },
      ] })
      .onConflictDoNothing();
  });

  /** An account as create-account leaves it: an administrator, a simulator number, and `balance` through the ledger. */
  async function demoAccount(planId: string, balance: string | null): Promise<{ accountId: string; adminId: string }> {
    const admin = await createUser(database.db);
    const member = await createUser(database.db);
    const account = await createAccount(database.db, { [admin.id]: 'Administrator', [member.id]: 'Sender' }, { planId });
    await createPhoneNumber(database.db, account.id, { messagesPerSecond: 50 });
    if (balance !== null) await database.db.transaction((tx) => creditAccount(tx, { accountId: account.id, amount: balance, description: 'Test credit' }));
    seeded.push(account.id);
    return { accountId: account.id, adminId: admin.id };
  }

  const count = async (query: ReturnType<typeof sql>): Promise<number> => (await queryRows<{ n: number }>(database.db, query))[0]?.n ?? 0;

  it('fills an account with a believable demo through the real commands, and a second run adds nothing', async () => {
    const { accountId, adminId } = await demoAccount('growth', '5');
    const result = await seedDemo(config, database, silentLogger(), accountId);

    expect(result.nothingAdded).toBe(false);
    expect(result.added).toMatchObject({ contacts: 41, lists: 1, listMembers: 13, groups: 2, templates: 4, autoResponders: 1, campaigns: 1, topUp: null });
    expect(result.notes).toEqual([]);
    expect(result.demo).toMatchObject({ contacts: 41, countries: ['AU', 'CA', 'GB', 'US'], closed: 3 });
    // Three questions wait for an answer; a message the network failed waits too (the inbox's unread rule).
    expect(result.demo.unread).toBeGreaterThanOrEqual(3);
    expect(result.added.conversations).toBe(result.demo.conversations);
    expect(result.added.messages).toBe(result.demo.messages);

    // The campaign finished, and its report counts what the simulated network did with every message.
    const { campaign } = result;
    expect(campaign).toMatchObject({ status: 'done', recipients: 34, leftOut: 1 });
    const sent = Object.values(campaign?.byStatus ?? {}).reduce((sum, n) => sum + n, 0);
    expect(sent).toBe(34);
    expect(Object.keys(campaign?.byStatus ?? {}).every((status) => ['delivered', 'undelivered', 'failed'].includes(status))).toBe(true);
    const [job] = await queryRows<{ id: string }>(database.db, sql`select id from campaign_jobs where account_id = ${accountId}`);
    const report = await campaignJobReport(database.db, accountId, job?.id ?? '');
    expect(report?.job).toMatchObject({ status: 'done', invalidCount: 1 });
    expect(report?.statistics.filter((s) => s.outgoing).reduce((sum, s) => sum + s.count, 0)).toBe(34);
    expect(await count(sql`select count(*)::int as n from messages where account_id = ${accountId} and status in ('queued', 'sending', 'sent')`)).toBe(0);

    // The records, each the account's own, with the account's users in the groups.
    const groups = await database.db.select().from(contactGroups).where(eq(contactGroups.accountId, accountId));
    expect(groups.map((g) => g.name).sort()).toEqual(['Customer Care', 'Wholesale']);
    const careUsers = await database.db
      .select({ userId: groupUsers.userId })
      .from(groupUsers)
      .where(eq(groupUsers.groupId, groups.find((g) => g.name === 'Customer Care')?.id ?? ''));
    expect(careUsers).toHaveLength(2);
    expect(await database.db.select().from(templates).where(eq(templates.accountId, accountId))).toHaveLength(4);
    expect(await database.db.select().from(autoResponders).where(eq(autoResponders.accountId, accountId))).toHaveLength(1);
    expect(await database.db.select().from(listMembers).where(and(eq(listMembers.accountId, accountId), eq(listMembers.status, 'optedIn')))).toHaveLength(13);
    expect(await count(sql`select count(*)::int as n from contacts where account_id = ${accountId} and opted_out_at is not null`)).toBe(1);
    expect(await count(sql`select count(*)::int as n from contacts where account_id = ${accountId} and blocked_at is not null`)).toBe(1);
    // Sent as the verified administrator, answered by the auto responder once.
    expect(await count(sql`select count(*)::int as n from messages where account_id = ${accountId} and created_by_user_id = ${adminId}`)).toBeGreaterThan(0);
    expect(await count(sql`select count(*)::int as n from messages where account_id = ${accountId} and reply_to_id is not null and direction = 'outbound' and body like 'We roast%'`)).toBe(1);

    const ledger = await ledgerAndBalance(database.db, accountId);
    expect(ledger.balance).toBe(ledger.ledger);
    const entries = await database.db.select().from(accountTransactions).where(eq(accountTransactions.accountId, accountId));

    const again = await seedDemo(config, database, silentLogger(), accountId);
    expect(again.nothingAdded).toBe(true);
    expect(Object.values(again.added).every((v) => v === 0 || v === null)).toBe(true);
    expect(again.demo).toEqual(result.demo);
    expect(again.campaign).toEqual(campaign);
    expect(await ledgerAndBalance(database.db, accountId)).toEqual(ledger);
    expect(await database.db.select().from(accountTransactions).where(eq(accountTransactions.accountId, accountId))).toHaveLength(entries.length);
  }, 180_000);

  it('on a trial plan leaves the auto responder out and says so, and credits an empty balance for the demo', async () => {
    const { accountId } = await demoAccount('trial', null);
    const result = await seedDemo(config, database, silentLogger(), accountId);
    expect(result.added).toMatchObject({ autoResponders: 0, campaigns: 1, topUp: '10.0000' });
    expect(result.notes).toEqual([TRIAL_AUTO_RESPONDER_NOTE, "Credited $10.0000 for the demo's messages (a demo credit, not a payment)."]);
    expect(await count(sql`select count(*)::int as n from account_transactions where account_id = ${accountId} and description = 'Demo credit'`)).toBe(1);
  }, 180_000);

  it('refuses without the simulator or a simulator number, and on PostgreSQL a balance that falls short', async () => {
    const { accountId } = await demoAccount('growth', null);
    await expect(seedDemo(testConfig({ SIMULATOR: 'false' }), database, silentLogger(), accountId)).rejects.toMatchObject({
      statusCode: 422,
      message: SIMULATOR_NEEDED_MESSAGE,
    });
    const bare = await createAccount(database.db, { [(await createUser(database.db)).id]: 'Administrator' });
    await expect(seedDemo(config, database, silentLogger(), bare.id)).rejects.toMatchObject({ statusCode: 422, message: NO_SIMULATOR_NUMBER_MESSAGE });
    const cost = demoCost({ pricing: { US: { sms: { outbound: '0.0100' } }, DEFAULT: { sms: { outbound: '0.0500' } } }, isTrial: false });
    expect(cost.messages).toBe(34 + 7 + 1);
    await expect(coverDemoCost(database.db, false, accountId, cost)).rejects.toMatchObject({
      statusCode: 402,
      message: `The demo sends about 42 messages (about $${(Number(cost.units) / 10_000).toFixed(4)}) and the balance is $0.0000. Top the account up first.`,
    });
  });

  it("uses numbers kept for fiction: valid, in four countries, never the simulator's inventory", () => {
    const phones = demoPhones();
    expect(new Set(phones).size).toBe(phones.length);
    for (const phone of phones) {
      const checked = checkE164(phone);
      expect(checked.ok, phone).toBe(true);
      expect(inventoryCountryOf(phone), phone).toBeNull();
    }
    expect(new Set(demoContacts.map((c) => c.country))).toEqual(new Set(['US', 'CA', 'GB', 'AU']));
    expect(demoContacts).toHaveLength(40);
  });
});
