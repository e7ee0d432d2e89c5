import { and, count, desc, eq } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client.js';
import { accountTransactions, billingInvoices, type BillingInvoiceRow } from '../../platform/db/schema/index.js';

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

/** One page of the account's invoices, newest first, and how many it has. */
export async function listInvoices(
  q: Queryable,
  accountId: string,
  page: { offset: number; limit: number },
): Promise<{ rows: BillingInvoiceRow[]; totalCount: number }> {
  const where = eq(billingInvoices.accountId, accountId);
  const [total] = await q.select({ n: count() }).from(billingInvoices).where(where);
  const rows = await q
    .select()
    .from(billingInvoices)
    .where(where)
    .orderBy(desc(billingInvoices.issuedAt), desc(billingInvoices.id))
    .limit(page.limit)
    .offset(page.offset);
  return { rows, totalCount: total?.n ?? 0 };
}

/** One of the account's invoices; null for another account's or an unknown one. */
export async function findInvoice(q: Queryable, accountId: string, invoiceId: string): Promise<BillingInvoiceRow | null> {
  const [row] = await q
    .select()
    .from(billingInvoices)
    .where(and(eq(billingInvoices.accountId, accountId), eq(billingInvoices.id, invoiceId)))
    .limit(1);
  return row ?? null;
}
