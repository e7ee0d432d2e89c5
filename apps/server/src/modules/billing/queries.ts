import { count, desc, eq } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client.js';
import { accountTransactions } from '../../platform/db/schema/index.js';

/** A ledger entry as it is stored. */
export type AccountTransactionRow = typeof accountTransactions.$inferSelect;

/** One page of the account's ledger, newest first, and how many entries it has in all. */
export async function listCharges(
  q: Queryable,
  accountId: string,
  page: { offset: number; limit: number },
): Promise<{ rows: AccountTransactionRow[]; totalCount: number }> {
  const where = eq(accountTransactions.accountId, accountId);
  const [total] = await q.select({ n: count() }).from(accountTransactions).where(where);
  const rows = await q
    .select()
    .from(accountTransactions)
    .where(where)
    // Ids are UUIDv7: entries written in one instant keep the order they were written in.
    .orderBy(desc(accountTransactions.createdAt), desc(accountTransactions.id))
    .limit(page.limit)
    .offset(page.offset);
  return { rows, totalCount: total?.n ?? 0 };
}
