import { sql, type SQL } from 'drizzle-orm';
import { campaignReportingUnits, campaignReportingWhens, reportingAddresses } from '@parley/shared';
import { z } from 'zod';
import { queryRows, type Db } from '../../platform/db/client.js';
import type { Mailer } from '../../platform/mail/index.js';
import { campaignReportMail } from '../reports/index.js';
import { campaignJobStatistics } from './campaignJobReport.js';
import { findExecution } from './campaignExecutions.js';

/*
 * A campaign's reporting (docs/campaigns.md, The reporting e-mail): `delay` `unit`s after an execution starts (afterStart) or after
 * its last message was queued (afterFinish), a summary goes to the campaign's destinations. The setting is
 * the one the campaign had when it was executed (campaign_jobs.reporting). A process takes a report
 * (report_claimed_at) before mailing it and marks it sent after, so two ticks never both send it; one that
 * dies in between leaves it to be taken over after REPORTING_CLAIM_LEASE_MS (sent at least once). When no
 * address takes it (the mail server is down), the next tick tries again, for a day after it was due; then
 * it is given up.
 */

/** How many due reports one tick sends at most; the rest wait for the next tick. */
export const REPORTING_BATCH = 20;
/** How long after its due time a report that no address took is tried again. */
export const REPORTING_GIVE_UP_MS = 24 * 60 * 60 * 1000;
/** A report taken this long ago and not finished is taken over (its process died while sending). */
export const REPORTING_CLAIM_LEASE_MS = 10 * 60 * 1000;

/** The stored setting, read leniently: a row written by an older version is skipped, never a crash. */
const storedReporting = z.object({
  when: z.enum(campaignReportingWhens),
  delay: z.coerce.number().int().min(0),
  unit: z.enum(campaignReportingUnits),
  destination: z.string(),
});

export type ReportOutcome =
  /** Mailed to at least one of the destinations. */
  | 'sent'
  /** Nothing to send: the account closed, the campaign removed, no usable setting or address. */
  | 'skipped'
  /** No address took it and it is over a day late: given up. */
  | 'abandoned'
  /** No address took it; the next tick tries again. */
  | 'retry'
  /** Another process has it, or it was sent meanwhile. */
  | 'taken';

export interface ReportingDeps {
  db: Db;
  mailer: Mailer;
  /** Where the web app is, for the mail's link. */
  publicUrl: string;
  now?: () => Date;
  onMailError?: (error: unknown, context: { campaignJobId: string; to: string }) => void;
}

/** The delay as an SQL interval expression over the stored setting `r`. */
const delayInterval = (r: SQL): SQL => sql`(${r}->>'delay')::int * case ${r}->>'unit'
      when 'm' then interval '1 minute' when 'h' then interval '1 hour' else interval '1 day' end`;

/** Executions whose report is due at `now`, oldest first. */
export async function dueCampaignReports(db: Db, now: Date, limit = REPORTING_BATCH): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select j.id from campaign_jobs j
         where j.reporting is not null and j.reported_at is null and j.created_at <= ${now} and j.status <> 'preparing'
           and (j.report_claimed_at is null or j.report_claimed_at < ${new Date(now.getTime() - REPORTING_CLAIM_LEASE_MS)})
           and (case when j.reporting->>'when' = 'afterFinish' then j.finished_at else j.created_at end)
               + ${delayInterval(sql`j.reporting`)} <= ${now}
         order by j.created_at limit ${limit}`,
  );
  return rows.map((r) => r.id);
}

interface ClaimedJob extends Record<string, unknown> {
  id: string;
  account_id: string;
  reporting: unknown;
  due_at: string | Date;
  campaign_name: string | null;
  account_name: string;
  account_active: boolean;
}

const asDate = (value: string | Date): Date => (value instanceof Date ? value : new Date(value));

/**
 * Takes an unreported execution for sending: nobody holds it, or whoever did has not finished within the
 * lease (a process that died). Null when it is sent or held.
 */
async function claimReport(db: Db, campaignJobId: string, now: Date): Promise<ClaimedJob | null> {
  const leaseStart = new Date(now.getTime() - REPORTING_CLAIM_LEASE_MS);
  const [job] = await queryRows<ClaimedJob>(
    db,
    sql`with claimed as (
          update campaign_jobs set report_claimed_at = ${now}
           where id = ${campaignJobId} and reported_at is null and reporting is not null
             and (report_claimed_at is null or report_claimed_at < ${leaseStart})
          returning id, account_id, campaign_id, reporting, created_at, finished_at)
        select j.id, j.account_id, j.reporting,
               (case when j.reporting->>'when' = 'afterFinish' then j.finished_at else j.created_at end)
                 + ${delayInterval(sql`j.reporting`)} as due_at,
               c.name as campaign_name, a.name as account_name, a.status = 'active' as account_active
          from claimed j
          join accounts a on a.id = j.account_id
          left join campaigns c on c.id = j.campaign_id`,
  );
  return job ?? null;
}

/**
 * Mails the report of one execution, if it is still unreported and nobody else holds it, and marks it. The
 * mail goes out between two short statements, never inside a transaction: the local mailbox writes to the
 * same database (on PGlite, one connection), and a slow SMTP server must not hold a lock.
 */
export async function sendCampaignReport(deps: ReportingDeps, campaignJobId: string): Promise<ReportOutcome> {
  const now = deps.now?.() ?? new Date();
  const { db } = deps;
  const job = await claimReport(db, campaignJobId, now);
  if (job === null) return 'taken';
  const finish = async (outcome: ReportOutcome): Promise<ReportOutcome> => {
    await db.execute(
      outcome === 'retry'
        ? sql`update campaign_jobs set report_claimed_at = null where id = ${campaignJobId}`
        : sql`update campaign_jobs set reported_at = ${now} where id = ${campaignJobId}`,
    );
    return outcome;
  };

  const reporting = storedReporting.safeParse(job.reporting);
  const addresses = reporting.success ? reportingAddresses(reporting.data.destination) : [];
  const record = await findExecution(db, job.account_id, campaignJobId);
  if (!job.account_active || job.campaign_name === null || addresses.length === 0 || record === null) return finish('skipped');

  const statistics = await campaignJobStatistics(db, job.account_id, campaignJobId);
  const content = campaignReportMail({
    ...record,
    accountName: job.account_name,
    campaignName: job.campaign_name,
    statuses: statistics.filter((s) => s.outgoing),
    link: `${deps.publicUrl}/campaigns`,
  });
  const results = await Promise.allSettled(addresses.map((to) => deps.mailer.send({ to, ...content })));
  results.forEach((result, i) => {
    if (result.status === 'rejected') deps.onMailError?.(result.reason, { campaignJobId, to: addresses[i] ?? '' });
  });
  if (results.some((r) => r.status === 'fulfilled')) return finish('sent');
  return finish(now.getTime() - asDate(job.due_at).getTime() > REPORTING_GIVE_UP_MS ? 'abandoned' : 'retry');
}

/** Sends the reports that are due (at most REPORTING_BATCH) and says what became of each. */
export async function sendDueCampaignReports(deps: ReportingDeps): Promise<Map<string, ReportOutcome>> {
  const outcomes = new Map<string, ReportOutcome>();
  for (const id of await dueCampaignReports(deps.db, deps.now?.() ?? new Date())) {
    outcomes.set(id, await sendCampaignReport(deps, id));
  }
  return outcomes;
}
