import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { TRIAL_EXPIRED_MESSAGE } from '@parley/shared';
import type { Database } from '../../platform/db/client.js';
import { accounts, campaignJobRecipients, campaignJobs, campaigns, type CampaignRow } from '../../platform/db/schema/index.js';
import { insertCampaign } from '../../test/campaigns.js';
import { testDatabaseKinds } from '../../test/databases.js';
import { ensureTestPlan } from '../../test/factories.js';
import { useLedgerCheckedDatabase } from '../../test/ledgerCheckedDatabase.js';
import { addContact, balanceOf, messagingCounts, sendingAccount, type SendingAccount } from '../../test/sendingFixtures.js';
import { createExecutionIn } from './campaignExecutor.js';
import { sendCampaignBatch } from './campaignSender.js';

const DAY = 24 * 60 * 60 * 1000;

describe.each(testDatabaseKinds)('a trial that runs out under a campaign on %s', (kind) => {
  let database: Database;
  const owned: string[] = [];
  useLedgerCheckedDatabase(kind, (d) => (database = d), owned);

  /** A sending account on a trial plan created 14 days ago (one day left), with three contacts and a campaign. */
  async function trialCampaign(): Promise<{ a: SendingAccount; campaign: CampaignRow }> {
    const a = await sendingAccount(database.db, { balance: '10' });
    owned.push(a.accountId);
    const plan = await ensureTestPlan(database.db, 'trial-test-plan', true);
    await database.db.update(accounts).set({ planId: plan, createdAt: new Date(Date.now() - 14 * DAY) }).where(eq(accounts.id, a.accountId));
    for (let i = 0; i < 3; i += 1) await addContact(database.db, a.accountId);
    return { a, campaign: await insertCampaign(database.db, a.accountId, a.numberId, { template: 'Last chance' }) };
  }

  const execute = (campaign: CampaignRow, now?: Date) =>
    database.db.transaction(async (tx) => {
      const [locked] = await tx.select().from(campaigns).where(eq(campaigns.id, campaign.id)).for('update');
      if (!locked) throw new Error('no campaign');
      return createExecutionIn(tx, locked, { userId: null, ...(now === undefined ? {} : { now }) });
    });

  it('stops a running execution when the trial ends: the rest of its recipients carry the reason, nothing stalls', async () => {
    const { a, campaign } = await trialCampaign();
    const job = await execute(campaign);
    expect(job).toMatchObject({ status: 'running', recipients: 3 });
    expect(await sendCampaignBatch(database.db, job.id, { size: 1 })).toBe('sent');

    // Two days on the trial has run out: the next batch is refused and the execution stops with the reason.
    const later = () => new Date(Date.now() + 2 * DAY);
    expect(await sendCampaignBatch(database.db, job.id, { size: 1, now: later })).toBe('finished');
    const [stopped] = await database.db.select().from(campaignJobs).where(eq(campaignJobs.id, job.id));
    expect(stopped).toMatchObject({ status: 'failed', errorDescription: TRIAL_EXPIRED_MESSAGE, submitted: 1, failures: 2 });
    const recipients = await database.db
      .select()
      .from(campaignJobRecipients)
      .where(eq(campaignJobRecipients.jobId, job.id))
      .orderBy(asc(campaignJobRecipients.position));
    expect(recipients.map((r) => [r.messageId !== null, r.error])).toEqual([
      [true, null],
      [false, TRIAL_EXPIRED_MESSAGE],
      [false, TRIAL_EXPIRED_MESSAGE],
    ]);
    expect(await balanceOf(database.db, a.accountId)).toBe('9.9900');
    // Nothing is left for a runner to pick up.
    expect(await sendCampaignBatch(database.db, job.id, { size: 1 })).toBe('finished');
  });

  it('refuses to start an execution once the trial has run out, writing nothing', async () => {
    const { a, campaign } = await trialCampaign();
    const refused = await execute(campaign, new Date(Date.now() + 2 * DAY)).catch((error: unknown) => error);
    expect(refused).toMatchObject({ statusCode: 402, code: 'trial_expired', message: TRIAL_EXPIRED_MESSAGE });
    expect(await database.db.select().from(campaignJobs).where(eq(campaignJobs.campaignId, campaign.id))).toEqual([]);
    expect(await messagingCounts(database.db, a.accountId)).toMatchObject({ messages: 0, ledger: 1 });
  });
});
