import { sql, type SQL } from 'drizzle-orm';
import { CAMPAIGN_INVALID_LISTED, type CampaignInvalidEntry, type CampaignInvalidReason, type ListQuery } from '@parley/shared';
import { queryRows, type Queryable } from '../../platform/db/client.js';
import { isUuid } from '../../platform/db/ids.js';

/*
 * Executions as the campaign table's expanded row shows them. The counters the sender keeps (submitted,
 * failures before the carrier, price) are read from the row; what happens after (carrier failures, replies)
 * and the left-out list's counts are worked out here, in SQL, for the page asked for only: the invalid list
 * may hold every left-out contact of a large audience, so only its first entries leave the database.
 */

export const EXECUTION_NOT_FOUND = 'The execution';

/** An execution with what its row shows beside the stored columns. */
export interface ExecutionRecord {
  id: string;
  campaignId: string | null;
  status: 'running' | 'done' | 'failed';
  createdAt: Date;
  finishedAt: Date | null;
  recipients: number;
  submitted: number;
  /** Not queued when their turn came (stored) plus refused or not delivered by the carrier (counted). */
  failures: number;
  incoming: number;
  price: string;
  errorDescription: string | null;
  invalidListed: CampaignInvalidEntry[];
  invalidCount: number;
  invalidCounts: Partial<Record<CampaignInvalidReason, number>>;
}

interface ExecutionSqlRow extends Record<string, unknown> {
  id: string;
  campaign_id: string | null;
  status: ExecutionRecord['status'];
  created_at: string | Date;
  finished_at: string | Date | null;
  recipients: number;
  submitted: number;
  failures: number;
  carrier_failures: number;
  incoming: number;
  price: string;
  error_description: string | null;
  invalid_listed: CampaignInvalidEntry[];
  invalid_count: number;
  invalid_counts: Partial<Record<CampaignInvalidReason, number>>;
}

const asDate = (value: string | Date): Date => (value instanceof Date ? value : new Date(value));

function recordOf(row: ExecutionSqlRow): ExecutionRecord {
  return {
    id: row.id,
    campaignId: row.campaign_id,
    status: row.status,
    createdAt: asDate(row.created_at),
    finishedAt: row.finished_at === null ? null : asDate(row.finished_at),
    recipients: row.recipients,
    submitted: row.submitted,
    failures: row.failures + row.carrier_failures,
    incoming: row.incoming,
    price: row.price,
    errorDescription: row.error_description,
    invalidListed: row.invalid_listed,
    invalidCount: row.invalid_count,
    invalidCounts: row.invalid_counts,
  };
}

/**
 * The executions `where` selects (over campaign_jobs j), newest first. `incoming`: inbound messages in the
 * conversations the execution texted, received after its message there.
 */
async function selectExecutions(q: Queryable, where: SQL, page: { limit: number; offset: number }): Promise<ExecutionRecord[]> {
  const rows = await queryRows<ExecutionSqlRow>(
    q,
    sql`select j.id, j.campaign_id, j.status, j.created_at, j.finished_at, j.recipients, j.submitted, j.failures,
               j.price::text as price, j.error_description,
               (select coalesce(jsonb_agg(e order by n), '[]'::jsonb)
                  from jsonb_array_elements(j.invalid) with ordinality as t(e, n) where n <= ${CAMPAIGN_INVALID_LISTED}) as invalid_listed,
               jsonb_array_length(j.invalid) as invalid_count,
               (select coalesce(jsonb_object_agg(reason, n), '{}'::jsonb)
                  from (select e->>'reason' as reason, count(*)::int as n from jsonb_array_elements(j.invalid) as e group by 1) s) as invalid_counts,
               (select count(*)::int from messages m
                 where m.job_id = j.id and m.account_id = j.account_id and m.status in ('failed', 'undelivered')) as carrier_failures,
               (select count(*)::int from messages o
                  join messages i on i.conversation_id = o.conversation_id and i.direction = 'inbound' and i.created_at >= o.created_at
                 where o.job_id = j.id and o.account_id = j.account_id) as incoming
          from campaign_jobs j
         where ${where}
         order by j.created_at desc, j.id desc
         limit ${page.limit} offset ${page.offset}`,
  );
  return rows.map(recordOf);
}

/** An execution still 'preparing' (campaignPreparation.ts) is not one yet. */
const listed = sql`j.status <> 'preparing'`;

/** A campaign's executions, newest first. */
export async function listExecutions(
  q: Queryable,
  accountId: string,
  campaignId: string,
  page: ListQuery,
): Promise<{ records: ExecutionRecord[]; totalCount: number }> {
  const where = sql`j.account_id = ${accountId} and j.campaign_id = ${campaignId} and ${listed}`;
  const [total] = await queryRows<{ n: number }>(q, sql`select count(*)::int as n from campaign_jobs j where ${where}`);
  return { records: await selectExecutions(q, where, page), totalCount: total?.n ?? 0 };
}

/** One execution of the account; null for another account's, an unknown or a malformed id. */
export async function findExecution(q: Queryable, accountId: string, id: string): Promise<ExecutionRecord | null> {
  if (!isUuid(id)) return null;
  const [record] = await selectExecutions(q, sql`j.account_id = ${accountId} and j.id = ${id} and ${listed}`, { limit: 1, offset: 0 });
  return record ?? null;
}
