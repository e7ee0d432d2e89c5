import { sql } from 'drizzle-orm';
import { dailyCountsCsvColumns } from '@parley/shared';
import { csvLine } from '../contacts/index.js';
import { queryRows, type Queryable } from '../../platform/db/client.js';

interface DailyCountsRow extends Record<string, unknown> {
  day: string;
  outbound: string;
  segments: string;
  delivered: string;
  failed: string;
  inbound: string;
  opt_outs: string;
  spend: string;
}

/** Midnight UTC starting a 'YYYY-MM-DD' day, and the one after a day, as ISO text. */
const dayStart = (day: string): string => `${day}T00:00:00.000Z`;
const dayAfter = (day: string): string => new Date(Date.parse(dayStart(day)) + 86_400_000).toISOString();

/**
 * The summary report: one row per UTC day from `from` to `to` (inclusive), days without traffic as zeros.
 * Messages count on the day they were created. Outbound: every message sent (whatever became of it),
 * its segments, those delivered, those failed or undelivered; inbound: messages received; opt-outs: contacts
 * who opted out of the account (STOP) plus list memberships opted out that day, as the opted-out report lists
 * them; spend: what the day's outbound messages cost, less what was refunded (USD, 4 decimals).
 * At most DAILY_COUNTS_MAX_DAYS rows: one query, grouped in the database.
 */
export async function* dailyCountsCsv(q: Queryable, accountId: string, window: { from: string; to: string }): AsyncGenerator<string> {
  yield csvLine(dailyCountsCsvColumns);
  const start = dayStart(window.from);
  const end = dayAfter(window.to);
  const rows = await queryRows<DailyCountsRow>(
    q,
    sql`with days as (
          select d::date as day from generate_series(${window.from}::date, ${window.to}::date, interval '1 day') as d
        ),
        sent as (
          select (created_at at time zone 'UTC')::date as day,
            count(*) filter (where direction = 'outbound') as outbound,
            coalesce(sum(segments) filter (where direction = 'outbound'), 0) as segments,
            count(*) filter (where direction = 'outbound' and status = 'delivered') as delivered,
            count(*) filter (where direction = 'outbound' and status in ('failed', 'undelivered')) as failed,
            count(*) filter (where direction = 'inbound') as inbound,
            coalesce(sum(price) filter (where direction = 'outbound' and refunded_at is null), 0) as spend
          from messages
          where account_id = ${accountId} and created_at >= ${start}::timestamptz and created_at < ${end}::timestamptz
          group by 1
        ),
        opt_outs as (
          select day, count(*) as n from (
            select (opted_out_at at time zone 'UTC')::date as day from contacts
              where account_id = ${accountId} and opted_out_at >= ${start}::timestamptz and opted_out_at < ${end}::timestamptz
            union all
            select (opt_out_at at time zone 'UTC')::date from list_members
              where account_id = ${accountId} and status = 'optedOut' and opt_out_at >= ${start}::timestamptz and opt_out_at < ${end}::timestamptz
          ) as o
          group by day
        )
        select to_char(days.day, 'YYYY-MM-DD') as day,
          coalesce(sent.outbound, 0)::text as outbound, coalesce(sent.segments, 0)::text as segments,
          coalesce(sent.delivered, 0)::text as delivered, coalesce(sent.failed, 0)::text as failed,
          coalesce(sent.inbound, 0)::text as inbound, coalesce(opt_outs.n, 0)::text as opt_outs,
          coalesce(sent.spend, 0)::numeric(14, 4)::text as spend
        from days
        left join sent on sent.day = days.day
        left join opt_outs on opt_outs.day = days.day
        order by days.day`,
  );
  for (const row of rows) {
    yield csvLine([row.day, row.outbound, row.segments, row.delivered, row.failed, row.inbound, row.opt_outs, row.spend]);
  }
}
