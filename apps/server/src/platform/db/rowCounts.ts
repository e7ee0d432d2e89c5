import { and, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { defineJob } from '../jobs/queue.js';
import type { Database, Queryable } from './client.js';
import { queryRows } from './client.js';
import { runPrepared } from './preparedStatements.js';
import { accountRowCounts } from './schema/index.js';

/**
 * Exact counts of an account's contacts and conversations without counting them: statement-level triggers
 * write signed deltas to account_row_counts (migration 0020_row_count_triggers) and a read sums the
 * account's few rows. A delta becomes visible when its statement's transaction commits, as the rows it
 * counts do, so a count read in a snapshot agrees with the rows read in it (docs/decisions.md, "List totals").
 */
export type RowCountKind = 'contacts' | 'openConversations' | 'closedConversations';

/** Which stored kinds make up a count, and with which sign. */
const terms: Record<RowCountKind, readonly [string, 1 | -1][]> = {
  contacts: [['contacts', 1]],
  openConversations: [
    ['conversations', 1],
    ['closedConversations', -1],
  ],
  closedConversations: [['closedConversations', 1]],
};

/** The number of the account's rows of this kind, from the stored deltas. */
export async function accountRowCount(q: Queryable, accountId: string, kind: RowCountKind): Promise<number> {
  const parts = terms[kind];
  const signed = sql.join(
    parts.map(([stored, sign]) => sql.raw(`when '${stored}' then ${String(sign)}`)),
    sql` `,
  );
  const [row] = await runPrepared(
    `row_count_${kind}`,
    q
      .select({ n: sql<number>`coalesce(sum(${accountRowCounts.n} * case ${accountRowCounts.kind} ${signed} end), 0)::int` })
      .from(accountRowCounts)
      .where(and(eq(accountRowCounts.accountId, accountId), inArray(accountRowCounts.kind, parts.map(([stored]) => stored)))),
  );
  return row?.n ?? 0;
}

/**
 * Replaces each account's deltas by their sum, in one statement: rows written meanwhile by transactions not
 * yet committed are not seen and stay for the next fold, so no delta is lost or counted twice. Sums of
 * zero go (a deleted account's rows end so).
 */
export async function foldRowCounts(q: Queryable): Promise<number> {
  const [row] = await queryRows<{ folded: number }>(
    q,
    sql`with folded as (delete from account_row_counts returning account_id, kind, n),
             summed as (
               insert into account_row_counts (account_id, kind, n)
               select account_id, kind, sum(n) from folded group by account_id, kind having sum(n) <> 0
               returning 1)
        select (select count(*) from folded)::int as folded`,
  );
  return row?.folded ?? 0;
}

/** Folds the count deltas every minute, from the scheduler role (docs/decisions.md, "List totals"). */
export function foldRowCountsJob(database: Database) {
  return defineJob({
    name: 'maintenance.fold-row-counts',
    data: z.object({}).loose(),
    schedule: { cron: '* * * * *' },
    async handler(_data, ctx) {
      const folded = await foldRowCounts(database.db);
      ctx.log.debug({ folded }, 'folded row count deltas');
    },
  });
}
