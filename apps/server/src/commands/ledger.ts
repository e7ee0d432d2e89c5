import { and, eq, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { formatMoney } from '@parley/shared';
import type { Tx } from '../db/client.js';
import { accountTransactions, accounts } from '../db/schema/index.js';
import { notFound } from '../http/errors.js';

export interface LedgerCredit {
  accountId: string;
  /** USD, a decimal string with at most 4 decimals, above zero. */
  amount: string;
  description: string;
  /** A retried top-up with the same key credits once. */
  idempotencyKey?: string;
}

export interface LedgerEntry {
  transactionId: string;
  /** The balance after this entry, 4 decimals. */
  balanceAfter: string;
  /** True when the idempotency key had been used: nothing was credited this time. */
  duplicate: boolean;
}

/**
 * Credits an account: locks its row, adds the amount to the balance and writes the ledger entry, in the
 * caller's transaction. The arithmetic happens in PostgreSQL's numeric, never in binary floats.
 */
export async function creditAccount(tx: Tx, credit: LedgerCredit): Promise<LedgerEntry> {
  const amount = formatMoney(credit.amount);
  if (amount.startsWith('-') || amount === '0.0000') throw new Error(`a credit must be above zero: ${credit.amount}`);

  const [locked] = await tx
    .select({ id: accounts.id })
    .from(accounts)
    .where(eq(accounts.id, credit.accountId))
    .for('update');
  if (!locked) throw notFound('The account');

  if (credit.idempotencyKey !== undefined) {
    const [earlier] = await tx
      .select({ id: accountTransactions.id, balanceAfter: accountTransactions.balanceAfter })
      .from(accountTransactions)
      .where(
        and(
          eq(accountTransactions.accountId, credit.accountId),
          eq(accountTransactions.idempotencyKey, credit.idempotencyKey),
        ),
      )
      .limit(1);
    if (earlier) return { transactionId: earlier.id, balanceAfter: formatMoney(earlier.balanceAfter), duplicate: true };
  }

  const [updated] = await tx
    .update(accounts)
    .set({ balance: sql`${accounts.balance} + ${amount}::numeric`, updatedAt: new Date() })
    .where(eq(accounts.id, credit.accountId))
    .returning({ balance: accounts.balance });
  if (!updated) throw notFound('The account');

  const transactionId = uuidv7();
  await tx.insert(accountTransactions).values({
    id: transactionId,
    accountId: credit.accountId,
    kind: 'credit',
    amount,
    balanceAfter: updated.balance,
    description: credit.description,
    idempotencyKey: credit.idempotencyKey ?? null,
  });
  return { transactionId, balanceAfter: formatMoney(updated.balance), duplicate: false };
}
