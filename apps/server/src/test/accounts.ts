import { and, asc, eq, sql } from 'drizzle-orm';
import { queryRows, type Queryable } from '../platform/db/client.js';
import { events } from '../platform/db/schema/index.js';
import { expandEventRows } from '../modules/messaging/eventPayloads.js';

/** The sum of an account's ledger (credits and refunds up, debits down) and its cached balance. */
export async function ledgerAndBalance(q: Queryable, accountId: string): Promise<{ ledger: string; balance: string }> {
  const [row] = await queryRows<{ ledger: string; balance: string }>(
    q,
    sql`select
          (select coalesce(sum(case when kind = 'debit' then -amount else amount end), 0)::numeric(14,4)::text
             from account_transactions where account_id = ${accountId}) as ledger,
          (select balance::text from accounts where id = ${accountId}) as balance`,
  );
  if (!row) throw new Error('no such account');
  return row;
}

/** Events of a type the outbox holds for an account, one by one as they reach the websockets (rows may be shared). */
export async function outboxEvents(q: Queryable, type: string, accountId: string): Promise<{ data: unknown }[]> {
  const rows = await q
    .select()
    .from(events)
    .where(and(eq(events.type, type), eq(events.accountId, accountId)))
    .orderBy(asc(events.id));
  return (await expandEventRows(q, rows)).map((event) => ({ data: event.data }));
}
