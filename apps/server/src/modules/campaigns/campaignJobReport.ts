import { sql } from 'drizzle-orm';
import {
  JOB_REPORT_ERRORS_LISTED,
  JOB_REPORT_INVALID_LISTED,
  messageStatuses,
  type CampaignInvalidReason,
  type MessageStatus,
} from '@parley/shared';
import { queryRows, type Db, type Queryable } from '../../platform/db/client.js';
import { countResendable } from './campaignResend.js';
import { isUuid } from '../../platform/db/ids.js';

/*
 * The job report of a campaign execution (docs/campaigns.md, The job report; dialog 'Message Report'): its messages by
 * status, why they failed, who was left out. Everything is counted in SQL from the indexes a 100,000-message
 * execution needs: its messages through messages_job_idx (job_id), the replies through
 * messages_conversation_idx (conversation_id, created_at), its recipients through their (job_id, position)
 * key. Only the first entries of the left-out list leave the database.
 */

/** A failed message without a description of its own, in the words the message itself shows. */
export const CARRIER_FAILURE_DESCRIPTION = 'The carrier did not deliver the message.';

export interface JobStatistic {
  status: string;
  count: number;
  outgoing: boolean;
}

const asDate = (value: string | Date): Date => (value instanceof Date ? value : new Date(value));

const statusOrder = new Map<string, number>(messageStatuses.map((status, i) => [status, i]));

/**
 * The messages of an execution by status: its outgoing messages (`outgoing: true`), and the replies
 * (`outgoing: false`): inbound messages received in a conversation it texted, at or after its message
 * there (the execution row's `incoming` counts the same). Only statuses with messages; outgoing first, then
 * in the order of a message's life. Another account's or an unknown execution has none.
 */
export async function campaignJobStatistics(db: Db, accountId: string, jobId: string): Promise<{ status: string; count: number; outgoing: boolean }[]> {
  if (!isUuid(jobId)) return [];
  const [job] = await queryRows<{ created_at: string | Date }>(
    db,
    sql`select created_at from campaign_jobs where id = ${jobId} and account_id = ${accountId} and status <> 'preparing'`,
  );
  return job === undefined ? [] : jobStatistics(db, accountId, jobId, asDate(job.created_at));
}

/**
 * The counting behind campaignJobStatistics. Its replies are read from the conversations its messages went
 * to; `startedAt` (the execution's, before any of its messages) bounds them too, so a plan that reads the
 * account's inbound messages (messages_account_idx) reads only those since the execution began.
 */
async function jobStatistics(q: Queryable, accountId: string, jobId: string, startedAt: Date): Promise<JobStatistic[]> {
  const rows = await queryRows<{ status: string; count: number; outgoing: boolean }>(
    q,
    sql`select o.status, count(*)::int as count, true as outgoing
          from messages o
         where o.job_id = ${jobId} and o.account_id = ${accountId} and o.direction = 'outbound'
         group by o.status
        union all
        select i.status, count(*)::int as count, false as outgoing
          from messages o
          join messages i on i.conversation_id = o.conversation_id and i.created_at >= o.created_at
                         and i.direction = 'inbound' and i.account_id = o.account_id and i.created_at >= ${startedAt}
         where o.job_id = ${jobId} and o.account_id = ${accountId} and o.direction = 'outbound'
         group by i.status`,
  );
  return rows.sort(
    (a, b) => Number(b.outgoing) - Number(a.outgoing) || (statusOrder.get(a.status) ?? 99) - (statusOrder.get(b.status) ?? 99),
  );
}

export interface JobReportInvalidRecord {
  contactId: string | null;
  mobile: string | null;
  firstName: string | null;
  lastName: string | null;
  reason: CampaignInvalidReason;
  description: string;
  row: number | null;
}

export interface CampaignJobReportRecord {
  job: {
    id: string;
    campaignId: string | null;
    createdAt: Date;
    status: 'running' | 'done' | 'failed';
    errorDescription: string | null;
    invalid: JobReportInvalidRecord[];
    invalidCount: number;
  };
  statistics: { status: MessageStatus; count: number; outgoing: boolean }[];
  errors: { description: string; count: number }[];
  resendable: number;
}

interface JobSqlRow extends Record<string, unknown> {
  id: string;
  campaign_id: string | null;
  created_at: string | Date;
  status: 'running' | 'done' | 'failed';
  error_description: string | null;
  invalid_count: number;
}

/** The first left-out entries with the names of their contacts (those still there). */
async function invalidListed(q: Queryable, accountId: string, jobId: string): Promise<JobReportInvalidRecord[]> {
  const rows = await queryRows<{
    contact_id: string | null;
    mobile: string | null;
    first_name: string | null;
    last_name: string | null;
    reason: CampaignInvalidReason;
    description: string | null;
    row_number: number | null;
  }>(
    q,
    sql`select e.contact_id, e.mobile, c.first_name, c.last_name, e.reason, e.description, e.row_number
          from (select coalesce(t.e->'contact'->>'id', t.e->>'contactId') as contact_id, t.e->>'mobile' as mobile,
                       t.e->>'reason' as reason, t.e->>'description' as description, (t.e->>'row')::int as row_number, t.n
                  from campaign_jobs j, jsonb_array_elements(j.invalid) with ordinality as t(e, n)
                 where j.id = ${jobId} and j.account_id = ${accountId} and t.n <= ${JOB_REPORT_INVALID_LISTED}) e
          left join contacts c on c.account_id = ${accountId} and c.id = e.contact_id::uuid
         order by e.n`,
  );
  return rows.map((r) => ({
    contactId: r.contact_id,
    mobile: r.mobile ?? null,
    firstName: r.first_name,
    lastName: r.last_name,
    reason: r.reason,
    description: r.description ?? r.reason,
    row: r.row_number,
  }));
}

/**
 * Why messages of the execution failed (refused or not delivered by the carrier), grouped by description,
 * and why recipients were not sent when their turn came, the most frequent first.
 */
async function jobErrors(q: Queryable, accountId: string, jobId: string): Promise<{ description: string; count: number }[]> {
  return queryRows<{ description: string; count: number }>(
    q,
    sql`select s.description, count(*)::int as count from (
          select coalesce(m.error_description, ${CARRIER_FAILURE_DESCRIPTION}) as description
            from messages m
           where m.job_id = ${jobId} and m.account_id = ${accountId} and m.status in ('failed', 'undelivered')
          union all
          select r.error from campaign_job_recipients r
           where r.job_id = ${jobId} and r.message_id is null and r.error is not null) s
        group by s.description
        order by count(*) desc, s.description
        limit ${JOB_REPORT_ERRORS_LISTED}`,
  );
}

/** The report of one execution of the account; null for another account's, an unknown or a malformed id. */
export async function campaignJobReport(q: Queryable, accountId: string, jobId: string): Promise<CampaignJobReportRecord | null> {
  if (!isUuid(jobId)) return null;
  const [job] = await queryRows<JobSqlRow>(
    q,
    sql`select id, campaign_id, created_at, status, error_description, jsonb_array_length(invalid) as invalid_count
          from campaign_jobs where id = ${jobId} and account_id = ${accountId} and status <> 'preparing'`,
  );
  if (!job) return null;
  const [invalid, statistics, errors, resendable] = await Promise.all([
    invalidListed(q, accountId, jobId),
    jobStatistics(q, accountId, jobId, asDate(job.created_at)),
    jobErrors(q, accountId, jobId),
    countResendable(q, accountId, jobId),
  ]);
  return {
    job: {
      id: job.id,
      campaignId: job.campaign_id,
      createdAt: asDate(job.created_at),
      status: job.status,
      errorDescription: job.error_description,
      invalid,
      invalidCount: job.invalid_count,
    },
    statistics: statistics.filter((s): s is { status: MessageStatus; count: number; outgoing: boolean } => statusOrder.has(s.status)),
    errors,
    resendable,
  };
}
