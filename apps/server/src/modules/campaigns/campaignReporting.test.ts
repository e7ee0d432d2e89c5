import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client.js';
import { accounts, campaignJobs, campaigns, type CampaignRow } from '../../platform/db/schema/index.js';
import { createLocalMailbox } from '../../platform/mail/localMailbox.js';
import type { Mailer, MailMessage } from '../../platform/mail/index.js';
import { insertCampaign } from '../../test/campaigns.js';
import { testDatabaseKinds } from '../../test/databases.js';
import { useLedgerCheckedDatabase } from '../../test/ledgerCheckedDatabase.js';
import { mailsTo } from '../../test/mail.js';
import { addContact, sendingAccount } from '../../test/sendingFixtures.js';
import { createExecutionIn } from './campaignExecutor.js';
import { dueCampaignReports, REPORTING_CLAIM_LEASE_MS, REPORTING_GIVE_UP_MS, sendCampaignReport, sendDueCampaignReports, type ReportingDeps } from './campaignReporting.js';
import { runCampaignExecution } from './campaignSender.js';

const MINUTE = 60_000;
const at = (start: Date, ms: number): Date => new Date(start.getTime() + ms);

/** A mailer that refuses the addresses it is given and hands the others to `inner`. */
function refusingMailer(inner: Mailer, refused: ReadonlySet<string>): Mailer {
  return {
    kind: inner.kind,
    send: (message: MailMessage) => (refused.has(message.to) ? Promise.reject(new Error(`refused ${message.to}`)) : inner.send(message)),
  };
}

describe.each(testDatabaseKinds)('campaign reporting on %s', (kind) => {
  let database: Database;
  const ledgerAccounts: string[] = [];
  useLedgerCheckedDatabase(kind, (d) => (database = d), ledgerAccounts);

  let serial = 0;
  const addresses = (): [string, string] => {
    serial += 1;
    const tag = `${String(Date.now())}-${String(serial)}-${kind}`;
    return [`ops-${tag}@example.test`, `boss-${tag}@example.test`];
  };

  /** An account with two contacts and a campaign reporting to two addresses `delay` minutes after `when`. */
  async function reportingCampaign(when: 'afterStart' | 'afterFinish', delay = 5, reporting = true) {
    const a = await sendingAccount(database.db, { balance: '10' });
    ledgerAccounts.push(a.accountId);
    await addContact(database.db, a.accountId, { firstName: 'Ann' });
    await addContact(database.db, a.accountId, { firstName: 'Bo' });
    const to = addresses();
    const campaign = await insertCampaign(database.db, a.accountId, a.numberId, {
      name: `Spring sale ${String(serial)}`,
      reporting: reporting ? { when, delay, unit: 'm', destination: to.join(';') } : null,
    });
    return { a, campaign, to };
  }

  const execute = (campaign: CampaignRow, now: Date) =>
    database.db.transaction(async (tx) => {
      const [locked] = await tx.select().from(campaigns).where(eq(campaigns.id, campaign.id)).for('update');
      if (!locked) throw new Error('no campaign');
      return createExecutionIn(tx, locked, { userId: null, now });
    });

  const deps = (now: Date, mailer: Mailer = createLocalMailbox(database.db)): ReportingDeps => ({
    db: database.db,
    mailer,
    publicUrl: 'https://parley.example.test',
    now: () => now,
  });

  const reportedAt = async (jobId: string): Promise<Date | null> => {
    const [row] = await database.db.select({ at: campaignJobs.reportedAt }).from(campaignJobs).where(eq(campaignJobs.id, jobId));
    return row?.at ?? null;
  };

  it('mails the summary to every destination once, the delay after the start', async () => {
    const { campaign, to } = await reportingCampaign('afterStart', 5);
    const start = new Date();
    const job = await execute(campaign, start);
    expect(job.reporting).toMatchObject({ when: 'afterStart', delay: 5, unit: 'm' });
    await runCampaignExecution(database.db, job.id);

    expect(await dueCampaignReports(database.db, at(start, 5 * MINUTE - 1000), 1000)).not.toContain(job.id);
    expect(await dueCampaignReports(database.db, at(start, 5 * MINUTE), 1000)).toContain(job.id);

    expect(await sendCampaignReport(deps(at(start, 5 * MINUTE)), job.id)).toBe('sent');
    for (const address of to) {
      const mails = await mailsTo(database.db, address);
      expect(mails).toHaveLength(1);
      expect(mails[0]?.subject).toBe(`Campaign report: ${campaign.name}`);
      expect(mails[0]?.text).toContain('Recipients: 2. Submitted: 2. Failures: 0.');
      expect(mails[0]?.text).toContain('Messages by status: Queued 2.');
      expect(mails[0]?.text).toContain('https://parley.example.test/campaigns');
    }
    expect(await reportedAt(job.id)).not.toBeNull();

    // Sent once: a later tick finds nothing due, and a direct call finds it taken.
    expect(await dueCampaignReports(database.db, at(start, 60 * MINUTE), 1000)).not.toContain(job.id);
    expect(await sendCampaignReport(deps(at(start, 60 * MINUTE)), job.id)).toBe('taken');
    expect(await mailsTo(database.db, to[0])).toHaveLength(1);
  });

  it('counts an afterFinish delay from the end of the execution, never while it still sends', async () => {
    const { campaign } = await reportingCampaign('afterFinish', 10);
    const start = new Date();
    const job = await execute(campaign, start);
    expect(await dueCampaignReports(database.db, at(start, 24 * 60 * MINUTE), 1000)).not.toContain(job.id);

    const finished = at(start, 2 * MINUTE);
    await runCampaignExecution(database.db, job.id, { now: () => finished });
    expect(await dueCampaignReports(database.db, at(finished, 10 * MINUTE - 1000), 1000)).not.toContain(job.id);
    expect(await dueCampaignReports(database.db, at(finished, 10 * MINUTE), 1000)).toContain(job.id);
  });

  it('sends nothing for a campaign without reporting', async () => {
    const { campaign } = await reportingCampaign('afterStart', 0, false);
    const start = new Date();
    const job = await execute(campaign, start);
    expect(job.reporting).toBeNull();
    expect(await dueCampaignReports(database.db, at(start, 365 * 24 * 60 * MINUTE), 1000)).not.toContain(job.id);
  });

  it('keeps the setting the campaign had when it was executed', async () => {
    const { campaign, to } = await reportingCampaign('afterStart', 0);
    const start = new Date();
    const job = await execute(campaign, start);
    await database.db.update(campaigns).set({ reporting: null }).where(eq(campaigns.id, campaign.id));
    expect(await sendCampaignReport(deps(at(start, MINUTE)), job.id)).toBe('sent');
    expect(await mailsTo(database.db, to[1])).toHaveLength(1);
  });

  it('counts a report sent when one address takes it, and tries again when none does, for a day', async () => {
    const first = await reportingCampaign('afterStart', 0);
    const start = new Date();
    const partly = await execute(first.campaign, start);
    const local = createLocalMailbox(database.db);
    expect(await sendCampaignReport(deps(start, refusingMailer(local, new Set([first.to[0]]))), partly.id)).toBe('sent');
    expect(await mailsTo(database.db, first.to[1])).toHaveLength(1);

    const second = await reportingCampaign('afterStart', 0);
    const job = await execute(second.campaign, start);
    const down = refusingMailer(local, new Set(second.to));
    const errors: string[] = [];
    const failing = { ...deps(start, down), onMailError: (_e: unknown, c: { to: string }) => errors.push(c.to) };
    expect(await sendCampaignReport(failing, job.id)).toBe('retry');
    expect(errors.sort()).toEqual([...second.to].sort());
    expect(await reportedAt(job.id)).toBeNull();

    const late = at(start, REPORTING_GIVE_UP_MS + MINUTE);
    expect(await sendCampaignReport({ ...failing, now: () => late }, job.id)).toBe('abandoned');
    expect(await reportedAt(job.id)).not.toBeNull();
    expect(await mailsTo(database.db, second.to[0])).toHaveLength(0);
  });

  it('sends one report when two ticks run at once', async () => {
    const { campaign, to } = await reportingCampaign('afterStart', 0);
    const start = new Date();
    const job = await execute(campaign, start);
    const outcomes = await Promise.all([sendDueCampaignReports(deps(start)), sendDueCampaignReports(deps(start))]);
    expect(outcomes.map((o) => o.get(job.id)).filter((o) => o === 'sent')).toHaveLength(1);
    expect(await mailsTo(database.db, to[0])).toHaveLength(1);
  });

  it('takes over a report whose process died while sending it, once the lease is over', async () => {
    const { campaign, to } = await reportingCampaign('afterStart', 0);
    const start = new Date();
    const job = await execute(campaign, start);
    // A process took it and died before marking it sent.
    await database.db.update(campaignJobs).set({ reportClaimedAt: start }).where(eq(campaignJobs.id, job.id));
    expect(await dueCampaignReports(database.db, at(start, MINUTE), 1000)).not.toContain(job.id);
    expect(await sendCampaignReport(deps(at(start, MINUTE)), job.id)).toBe('taken');
    const later = at(start, REPORTING_CLAIM_LEASE_MS + MINUTE);
    expect(await dueCampaignReports(database.db, later, 1000)).toContain(job.id);
    expect(await sendCampaignReport(deps(later), job.id)).toBe('sent');
    expect(await mailsTo(database.db, to[0])).toHaveLength(1);
  });

  it('skips the report of a closed account without mailing it', async () => {
    const { a, campaign, to } = await reportingCampaign('afterStart', 0);
    const start = new Date();
    const job = await execute(campaign, start);
    await database.db.update(accounts).set({ status: 'closed' }).where(eq(accounts.id, a.accountId));
    expect(await sendCampaignReport(deps(start), job.id)).toBe('skipped');
    expect(await reportedAt(job.id)).not.toBeNull();
    expect(await mailsTo(database.db, to[0])).toHaveLength(0);
  });
});
