import { and, eq, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { formatMoney } from '@parley/shared';
import { queryRows, type Tx } from '../../platform/db/client.js';
import { accountTransactions, accounts } from '../../platform/db/schema/index.js';
import { notFound } from '../../platform/errors.js';
import { crossesThreshold, scheduleAutoTopup, type AutoTopupRule } from './autoTopup.js';
import { InsufficientBalanceError } from './chargeRefusals.js';
import { openTrialCondition, requireChargeableAccount } from './trial.js';

export { ChargeRefusedError, INSUFFICIENT_BALANCE_MESSAGE, InsufficientBalanceError, TrialExpiredError } from './chargeRefusals.js';

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

/** a + b for two 4-decimal amounts, exactly. */
function moneyPlus(a: string, b: string): string {
  const sum = BigInt(formatMoney(a).replace('.', '')) + BigInt(formatMoney(b).replace('.', ''));
  const text = sum.toString().padStart(5, '0');
  return `${text.slice(0, -4)}.${text.slice(-4)}`;
}

export interface LedgerDebit {
  accountId: string;
  /** USD, a decimal string with at most 4 decimals, above zero. */
  amount: string;
  description: string;
  /** A charge made twice with the same key debits once (the second answers duplicate). */
  idempotencyKey?: string;
  /** The moment of the charge, for the trial's end (the clock by default). */
  now?: Date;
}

/**
 * Debits an account: takes the amount off the balance when the balance covers it and the account's trial
 * has not run out (billing/trial.ts), and writes the ledger entry, in the caller's transaction (the account
 * row stays locked until it ends); otherwise throws TrialExpiredError or InsufficientBalanceError and changes
 * nothing. The comparison and the arithmetic happen in PostgreSQL's numeric. Without an idempotency key it
 * is one statement; with one, the row is locked first so the key is looked up by one debit at a time.
 */
export async function debitAccount(tx: Tx, debit: LedgerDebit): Promise<LedgerEntry> {
  const amount = formatMoney(debit.amount);
  if (amount.startsWith('-') || amount === '0.0000') throw new Error(`a debit must be above zero: ${debit.amount}`);

  if (debit.idempotencyKey !== undefined) {
    const [locked] = await tx
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(accounts.id, debit.accountId))
      // NO KEY UPDATE: a caller that inserted rows referencing the account (a contact, a message) already holds
      // KEY SHARE on it; FOR UPDATE would deadlock two such callers, this waits its turn instead.
      .for('no key update');
    if (!locked) throw notFound('The account');
    const [earlier] = await tx
      .select({ id: accountTransactions.id, balanceAfter: accountTransactions.balanceAfter })
      .from(accountTransactions)
      .where(
        and(eq(accountTransactions.accountId, debit.accountId), eq(accountTransactions.idempotencyKey, debit.idempotencyKey)),
      )
      .limit(1);
    if (earlier) return { transactionId: earlier.id, balanceAfter: formatMoney(earlier.balanceAfter), duplicate: true };
  }

  // The UPDATE locks the row (NO KEY UPDATE, as above) and, after waiting for another debit, checks the
  // balance again as that one left it; the entry is written from the balance it returns.
  const transactionId = uuidv7();
  const now = debit.now ?? new Date();
  const [entry] = await queryRows<{ balance_after: string; autotopup: AutoTopupRule | null }>(
    tx,
    sql`with debited as (
          update ${accounts} set balance = balance - ${amount}::numeric, updated_at = ${new Date().toISOString()}::timestamptz
           where id = ${debit.accountId} and balance >= ${amount}::numeric and ${openTrialCondition(now)}
          returning balance, options->'autotopup' as autotopup),
        entry as (
          insert into ${accountTransactions} (id, account_id, kind, amount, balance_after, description, idempotency_key)
          select ${transactionId}::uuid, ${debit.accountId}::uuid, 'debit', ${amount}::numeric, balance, ${debit.description},
                 ${debit.idempotencyKey ?? null}::text
            from debited
          returning balance_after)
        select entry.balance_after::text as balance_after, debited.autotopup from entry, debited`,
  );
  if (entry) {
    const balanceAfter = formatMoney(entry.balance_after);
    // The account's auto top-up rule rides on the debit's own row: the hot path pays nothing for it (docs/billing.md).
    if (entry.autotopup !== null && crossesThreshold(entry.autotopup, moneyPlus(balanceAfter, amount), balanceAfter)) {
      await scheduleAutoTopup(tx, debit.accountId, entry.autotopup);
    }
    return { transactionId, balanceAfter, duplicate: false };
  }
  const [exists] = await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, debit.accountId)).limit(1);
  if (!exists) throw notFound('The account');
  await requireChargeableAccount(tx, debit.accountId, now);
  throw new InsufficientBalanceError();
}

export interface LedgerRefund {
  accountId: string;
  /** USD, a decimal string with at most 4 decimals, above zero. */
  amount: string;
  description: string;
  /** A refund made twice with the same key gives back once (a message id, a batch id). */
  idempotencyKey?: string;
}

/**
 * Gives back what a debit took (a message the carrier refused before accepting it): locks the account row
 * as a debit does and writes a `refund` entry, in the caller's transaction.
 */
export async function refundAccount(tx: Tx, refund: LedgerRefund): Promise<LedgerEntry> {
  const amount = formatMoney(refund.amount);
  if (amount.startsWith('-') || amount === '0.0000') throw new Error(`a refund must be above zero: ${refund.amount}`);

  const [locked] = await tx
    .select({ id: accounts.id })
    .from(accounts)
    .where(eq(accounts.id, refund.accountId))
    .for('no key update');
  if (!locked) throw notFound('The account');

  if (refund.idempotencyKey !== undefined) {
    const [earlier] = await tx
      .select({ id: accountTransactions.id, balanceAfter: accountTransactions.balanceAfter })
      .from(accountTransactions)
      .where(
        and(eq(accountTransactions.accountId, refund.accountId), eq(accountTransactions.idempotencyKey, refund.idempotencyKey)),
      )
      .limit(1);
    if (earlier) return { transactionId: earlier.id, balanceAfter: formatMoney(earlier.balanceAfter), duplicate: true };
  }

  const [updated] = await tx
    .update(accounts)
    .set({ balance: sql`${accounts.balance} + ${amount}::numeric`, updatedAt: new Date() })
    .where(eq(accounts.id, refund.accountId))
    .returning({ balance: accounts.balance });
  if (!updated) throw notFound('The account');

  const transactionId = uuidv7();
  await tx.insert(accountTransactions).values({
    id: transactionId,
    accountId: refund.accountId,
    kind: 'refund',
    amount,
    balanceAfter: updated.balance,
    description: refund.description,
    idempotencyKey: refund.idempotencyKey ?? null,
  });
  return { transactionId, balanceAfter: formatMoney(updated.balance), duplicate: false };
}
