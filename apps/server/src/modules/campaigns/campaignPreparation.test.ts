import { asc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { emptyCampaignFilters } from '@parley/shared';
import { queryRows, type Database } from '../../platform/db/client.js';
import { campaignJobRecipients, campaignJobs, campaigns, type CampaignJobRow, type CampaignRow } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { insertCampaign } from '../../test/campaigns.js';
import { testDatabaseKinds } from '../../test/databases.js';
import { useLedgerCheckedDatabase } from '../../test/ledgerCheckedDatabase.js';
import { addContact, sendingAccount, type SendingAccount } from '../../test/sendingFixtures.js';
import { campaignJobReport } from './campaignJobReport.js';
import { findExecution, listExecutions } from './campaignExecutions.js';
import { createExecutionIn, insertExecutionJob } from './campaignExecutor.js';
import { executeCampaign, removeAbandonedPreparations } from './campaignPreparation.js';

describe.each(testDatabaseKinds)('an execution prepared in chunks on %s', (kind) => {
  let database: Database;
  const accounts: string[] = [];
  useLedgerCheckedDatabase(kind, (d) => (database = d), accounts);

  async function account(balance = '10'): Promise<SendingAccount> {
    const a = await sendingAccount(database.db, { balance });
    accounts.push(a.accountId);
    return a;
  }

  /**
   * Eleven contacts in id order: five in the US, one blocked, one in FR, one opted out, one without a first
   * name, one in GB and one more in the US.
   */
  async function audienceOf(a: SendingAccount): Promise<void> {
    const add = (overrides: Parameters<typeof addContact>[2]) => addContact(database.db, a.accountId, overrides);
    for (let i = 0; i < 5; i += 1) await add({ firstName: `Us${String(i)}` });
    await add({ firstName: 'Blocked', blockedAt: new Date() });
    await add({ firstName: 'Fleur', mobileNumber: '+33612345678', mobileCountry: 'FR' });
    await add({ firstName: 'Out', optedOutAt: new Date() });
    await add({ firstName: '' });
    await add({ firstName: 'Gail', mobileNumber: '+447400123457', mobileCountry: 'GB' });
    await add({ firstName: 'Last' });
  }

  const recipientsOf = async (jobId: string): Promise<string[]> =>
    (
      await database.db
        .select({ contactId: campaignJobRecipients.contactId })
        .from(campaignJobRecipients)
        .where(eq(campaignJobRecipients.jobId, jobId))
        .orderBy(asc(campaignJobRecipients.position))
    ).map((r) => r.contactId);

  const oneTransaction = (campaign: CampaignRow): Promise<CampaignJobRow> =>
    database.db.transaction(async (tx) => {
      const [locked] = await tx.select().from(campaigns).where(eq(campaigns.id, campaign.id)).for('update');
      if (!locked) throw new Error('no campaign');
      return createExecutionIn(tx, locked, { userId: null });
    });

  const queued: string[] = [];
  const inChunks = (a: SendingAccount, campaign: CampaignRow, size: number): Promise<CampaignJobRow> =>
    executeCampaign(
      database.db,
      (id) => {
        queued.push(id);
        return Promise.resolve();
      },
      { accountId: a.accountId, campaignId: campaign.id, userId: null },
      (error) => {
        throw error;
      },
      { chunk: () => size },
    );

  it.each([
    ['a personal text', '{{{firstName}}}', false],
    ['one text with media', 'Doors open at 9.', true],
  ])('writes, prices and leaves out exactly as one transaction does, for %s', async (_name, template, media) => {
    const a = await account();
    await audienceOf(a);
    const campaign = await insertCampaign(database.db, a.accountId, a.numberId, {
      template,
      media: media ? [{ url: 'https://example.test/a.png', type: 'image/png', filename: 'a.png' }] : [],
    });
    const whole = await oneTransaction(campaign);
    // Chunks of 3: a chunk ends on a left-out contact, and the last one is short.
    const chunked = await inChunks(a, campaign, 3);
    expect(chunked.status).toBe('running');
    expect(queued).toContain(chunked.id);
    expect(chunked.recipients).toBe(whole.recipients);
    expect(chunked.invalid).toEqual(whole.invalid);
    expect(await recipientsOf(chunked.id)).toEqual(await recipientsOf(whole.id));
    const reasons = chunked.invalid.map((e) => e.reason);
    // With media, FR and GB have no MMS price; without, the contact with no first name gets an empty text.
    expect(reasons).toEqual(media ? ['blocked', 'optedOut', 'noPrice', 'noPrice'] : ['blocked', 'optedOut', 'emptyMessage']);
    expect(chunked.recipients).toBe(media ? 7 : 8);
    const [counted] = await database.db.select().from(campaigns).where(eq(campaigns.id, campaign.id));
    expect(counted).toMatchObject({ executions: 2, lastJobId: chunked.id });
  });

  it('gives the same result whatever the chunk size, and a chunk as large as the audience', async () => {
    const a = await account();
    await audienceOf(a);
    const campaign = await insertCampaign(database.db, a.accountId, a.numberId, { template: 'Hi {{{firstName}}}' });
    const results = [];
    for (const size of [1, 11, 500]) {
      const job = await inChunks(a, campaign, size);
      results.push({ recipients: job.recipients, invalid: job.invalid, ids: await recipientsOf(job.id) });
    }
    expect(results[1]).toEqual(results[0]);
    expect(results[2]).toEqual(results[0]);
  });

  it('opens an execution with nobody to text as done, and queues nothing', async () => {
    const a = await account();
    await addContact(database.db, a.accountId, { optedOutAt: new Date() });
    const campaign = await insertCampaign(database.db, a.accountId, a.numberId, { template: 'Hello' });
    const job = await inChunks(a, campaign, 2);
    expect(job).toMatchObject({ status: 'done', recipients: 0 });
    expect(job.finishedAt).not.toBeNull();
    expect(queued).not.toContain(job.id);
  });

  it('refuses with 402 Insufficient Credit after writing the chunks, and leaves nothing behind', async () => {
    const a = await account('0.0250');
    for (let i = 0; i < 3; i += 1) await addContact(database.db, a.accountId);
    const campaign = await insertCampaign(database.db, a.accountId, a.numberId, { template: 'Hello' });
    const refused = await inChunks(a, campaign, 1).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ statusCode: 402, message: 'Insufficient Credit' });
    const [jobs] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from campaign_jobs where account_id = ${a.accountId}`);
    expect(jobs?.n).toBe(0);
    const [left] = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from campaign_job_recipients r where not exists (select 1 from campaign_jobs j where j.id = r.job_id)`,
    );
    expect(left?.n).toBe(0);
    const [unchanged] = await database.db.select().from(campaigns).where(eq(campaigns.id, campaign.id));
    expect(unchanged).toMatchObject({ executions: 0, lastJobId: null });
  });

  it('refuses an inactive campaign before writing anything', async () => {
    const a = await account();
    await addContact(database.db, a.accountId);
    const campaign = await insertCampaign(database.db, a.accountId, a.numberId, { active: false });
    await expect(inChunks(a, campaign, 2)).rejects.toMatchObject({ statusCode: 409 });
    expect(await database.db.select().from(campaignJobs).where(eq(campaignJobs.accountId, a.accountId))).toEqual([]);
  });

  it('keeps a preparing execution out of the lists and reports, and the sweep removes it once abandoned', async () => {
    const a = await account();
    const contact = await addContact(database.db, a.accountId);
    const campaign = await insertCampaign(database.db, a.accountId, a.numberId, { template: 'Hello', filters: emptyCampaignFilters() });
    const createdAt = new Date(Date.now() - 2 * 60 * 60 * 1000);
    const { old, fresh } = await database.db.transaction(async (tx) => ({
      old: await insertExecutionJob(tx, campaign, campaign, { userId: null, now: createdAt, status: 'preparing' }),
      fresh: await insertExecutionJob(tx, campaign, campaign, { userId: null, now: new Date(), status: 'preparing' }),
    }));
    await database.db.insert(campaignJobRecipients).values({ jobId: old, position: 1, contactId: contact.id });

    expect(await listExecutions(database.db, a.accountId, campaign.id, { offset: 0, limit: 10 })).toEqual({ records: [], totalCount: 0 });
    expect(await findExecution(database.db, a.accountId, old)).toBeNull();
    expect(await campaignJobReport(database.db, a.accountId, old)).toBeNull();

    expect(await removeAbandonedPreparations(database.db)).toEqual([old]);
    const left = await database.db.select({ id: campaignJobs.id }).from(campaignJobs).where(eq(campaignJobs.accountId, a.accountId));
    expect(left).toEqual([{ id: fresh }]);
    expect(await recipientsOf(old)).toEqual([]);
  });
});
