import { asc, eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSUFFICIENT_CREDIT_MESSAGE, nextExecution, type CampaignSchedule } from '@parley/shared';
import type { Database } from '../../platform/db/client.js';
import { campaignJobRecipients, campaignJobs, campaigns } from '../../platform/db/schema/index.js';
import { campaignExecutionJob } from './campaignExecutionJob.js';
import { campaignSchedulerJob } from './campaignSchedulerJob.js';
import { JobQueue } from '../../platform/jobs/queue.js';
import { insertCampaign, queuedExecutionJobs } from '../../test/campaigns.js';
import { testDatabaseKinds, uniqueJobsSchema } from '../../test/databases.js';
import { useLedgerCheckedDatabase } from '../../test/ledgerCheckedDatabase.js';
import { silentLogger } from '../../test/logger.js';
import { addContact, sendingAccount, type SendingAccount } from '../../test/sendingFixtures.js';
import { resumeStalledExecutions, runDueCampaigns } from './campaignScheduling.js';

const daily: CampaignSchedule = { frequency: 'D', time: '09:00', timezone: 'Europe/London' };

describe.each(testDatabaseKinds)('scheduled campaigns on %s', (kind) => {
  let database: Database;
  const accounts: string[] = [];
  useLedgerCheckedDatabase(kind, (d) => (database = d), accounts);

  async function account(balance = '10'): Promise<SendingAccount> {
    const a = await sendingAccount(database.db, { balance });
    accounts.push(a.accountId);
    await addContact(database.db, a.accountId);
    await addContact(database.db, a.accountId);
    return a;
  }

  const scheduled = (a: SendingAccount, overrides: Partial<typeof campaigns.$inferInsert> = {}) =>
    insertCampaign(database.db, a.accountId, a.numberId, {
      trigger: 'S',
      schedule: daily,
      template: 'Hello',
      nextExecutionAt: new Date(Date.now() - 60_000),
      ...overrides,
    });

  const executionsOf = (campaignId: string) =>
    database.db.select().from(campaignJobs).where(eq(campaignJobs.campaignId, campaignId)).orderBy(asc(campaignJobs.createdAt));

  const campaignOf = async (id: string) => {
    const [row] = await database.db.select().from(campaigns).where(eq(campaigns.id, id));
    if (!row) throw new Error('no campaign');
    return row;
  };

  /** Runs a tick for these accounts' campaigns only: other tests' due campaigns are left for their own ticks. */
  const tick = (now: Date, enqueued: string[]) =>
    runDueCampaigns(database.db, (id) => {
      enqueued.push(id);
      return Promise.resolve();
    }, { now: () => now });

  it('runs a due campaign once, moves its next execution on, and leaves the others alone', async () => {
    const a = await account();
    const due = await scheduled(a);
    const later = await scheduled(a, { nextExecutionAt: new Date(Date.now() + 3_600_000) });
    const inactive = await scheduled(a, { active: false });
    const now = new Date();
    const enqueued: string[] = [];
    const runs = await tick(now, enqueued);
    const mine = runs.filter((r) => [due.id, later.id, inactive.id].includes(r.campaignId));
    expect(mine).toEqual([{ campaignId: due.id, campaignJobId: expect.any(String) as string, status: 'running' }]);
    expect(enqueued).toContain(mine[0]?.campaignJobId);

    const [execution] = await executionsOf(due.id);
    expect(execution).toMatchObject({ status: 'running', recipients: 2, createdByUserId: null });
    expect(await campaignOf(due.id)).toMatchObject({
      executions: 1,
      lastJobId: execution?.id,
      nextExecutionAt: nextExecution(daily, now),
    });
    expect(await executionsOf(later.id)).toEqual([]);
    expect(await executionsOf(inactive.id)).toEqual([]);
    // The next tick finds nothing due.
    await tick(new Date(), enqueued);
    expect(await executionsOf(due.id)).toHaveLength(1);
  });

  it('runs each due campaign exactly once when two schedulers tick at the same moment', async () => {
    const a = await account();
    const due = [await scheduled(a), await scheduled(a), await scheduled(a)];
    const now = new Date();
    const enqueued: string[] = [];
    await Promise.all([tick(now, enqueued), tick(now, enqueued), tick(now, enqueued)]);
    for (const campaign of due) {
      expect(await executionsOf(campaign.id)).toHaveLength(1);
      expect((await campaignOf(campaign.id)).executions).toBe(1);
    }
    const mine = (await Promise.all(due.map((c) => executionsOf(c.id)))).flat().map((e) => e.id);
    expect(enqueued.filter((id) => mine.includes(id)).sort()).toEqual([...mine].sort());
  });

  it('records a failed execution when the balance is below the estimate, and keeps the schedule', async () => {
    const a = await account('0.0150');
    const campaign = await scheduled(a);
    const now = new Date();
    const enqueued: string[] = [];
    const runs = (await tick(now, enqueued)).filter((r) => r.campaignId === campaign.id);
    expect(runs).toEqual([{ campaignId: campaign.id, campaignJobId: expect.any(String) as string, status: 'failed', error: INSUFFICIENT_CREDIT_MESSAGE }]);
    const [execution] = await executionsOf(campaign.id);
    expect(execution).toMatchObject({ status: 'failed', errorDescription: INSUFFICIENT_CREDIT_MESSAGE, recipients: 0, submitted: 0 });
    expect(enqueued).not.toContain(execution?.id);
    // Nothing of the refused run is left behind.
    expect(await database.db.select().from(campaignJobRecipients).where(eq(campaignJobRecipients.jobId, execution?.id ?? ''))).toEqual([]);
    expect(await campaignOf(campaign.id)).toMatchObject({ executions: 1, lastJobId: execution?.id, nextExecutionAt: nextExecution(daily, now) });
  });

  it('queues again an execution left without a runner, and finishes one with nothing left to send', async () => {
    const a = await account();
    const campaign = await scheduled(a, { nextExecutionAt: null });
    const old = new Date(Date.now() - 10 * 60_000);
    const stalled = uuidv7();
    const live = uuidv7();
    const empty = uuidv7();
    const fresh = uuidv7();
    for (const [id, createdAt] of [
      [stalled, old],
      [live, old],
      [empty, old],
      [fresh, new Date()],
    ] as const) {
      await database.db.insert(campaignJobs).values({ id, accountId: a.accountId, campaignId: campaign.id, phoneNumberFilter: { group: a.numberId }, createdAt });
    }
    const someone = await addContact(database.db, a.accountId);
    for (const jobId of [stalled, live, fresh]) await database.db.insert(campaignJobRecipients).values({ jobId, position: 1, contactId: someone.id });

    const enqueued: string[] = [];
    const result = await resumeStalledExecutions(
      database.db,
      (id) => Promise.resolve(id === live),
      (id) => {
        enqueued.push(id);
        return Promise.resolve();
      },
    );
    expect(result.resumed).toContain(stalled);
    expect(result.resumed).not.toContain(live);
    expect(result.resumed).not.toContain(fresh);
    expect(result.finished).toContain(empty);
    expect(enqueued).toContain(stalled);
    const [done] = await database.db.select().from(campaignJobs).where(eq(campaignJobs.id, empty));
    expect(done?.status).toBe('done');
  });

  describe('the pg-boss jobs', () => {
    let jobs: JobQueue;
    let jobsSchema: string;
    beforeAll(async () => {
      jobsSchema = uniqueJobsSchema();
      jobs = new JobQueue({ database, log: silentLogger(), work: false, schedule: false, retryLimit: 0, retryDelaySeconds: 1, schema: jobsSchema });
      await jobs.start([campaignExecutionJob(database), campaignSchedulerJob(database, jobs)]);
    });
    afterAll(async () => {
      await jobs.stop(1000);
    });

    it('ticks every minute: runs what is due and queues its sending once', async () => {
      const definition = campaignSchedulerJob(database, jobs);
      expect(definition.schedule).toEqual({ cron: '* * * * *' });
      const a = await account();
      const campaign = await scheduled(a);
      const ctx = { jobId: 'tick', retryCount: 0, log: silentLogger(), signal: new AbortController().signal };
      await definition.handler({}, ctx);
      const [execution] = await executionsOf(campaign.id);
      if (!execution) throw new Error('not run');
      expect(await queuedExecutionJobs(database.db, jobsSchema, execution.id)).toEqual([{ state: 'created' }]);
      // Made to look stalled: the sweep finds its job still queued and does not queue another.
      await database.db.update(campaignJobs).set({ createdAt: new Date(Date.now() - 10 * 60_000) }).where(eq(campaignJobs.id, execution.id));
      await definition.handler({}, ctx);
      expect(await queuedExecutionJobs(database.db, jobsSchema, execution.id)).toHaveLength(1);
      // The execution job sends it.
      await campaignExecutionJob(database).handler({ campaignJobId: execution.id }, ctx);
      const [sent] = await executionsOf(campaign.id);
      expect(sent).toMatchObject({ status: 'done', submitted: 2 });
    });
  });
});
