import { and, eq } from 'drizzle-orm';
import { formatMoney, type TopupResult } from '@parley/shared';
import { creditAccount } from './ledger.js';
import type { Db } from '../../platform/db/client.js';
import { accountTransactions, users } from '../../platform/db/schema/index.js';
import { AppError, notFound } from '../../platform/errors.js';
import { requireVerifiedEmail } from '../../platform/policies/verifiedEmail.js';
import { presentCharge } from './chargePresenter.js';

export const IDEMPOTENCY_KEY_REUSED_MESSAGE = 'This Idempotency-Key was already used for another amount.';
export const TOPUP_DESCRIPTION = 'Top-up (sandbox payment)';

export interface SandboxTopup {
  accountId: string;
  /** The person paying; null for an API client. */
  userId: string | null;
  /** A decimal string, already checked against the bounds. */
  amount: string;
  idempotencyKey: string | null;
}

/**
 * The sandbox payment provider of the embedded mode: every payment succeeds at once and credits the ledger.
 * A retry with the same Idempotency-Key credits once and answers the first result; the same key with
 * another amount is refused rather than silently answered with the first.
 */
export async function sandboxTopup(db: Db, topup: SandboxTopup): Promise<TopupResult['data']> {
  return db.transaction(async (tx) => {
    if (topup.userId !== null) {
      const [user] = await tx.select({ emailVerifiedAt: users.emailVerifiedAt }).from(users).where(eq(users.id, topup.userId)).limit(1);
      requireVerifiedEmail({ emailVerifiedAt: user?.emailVerifiedAt ?? null });
    }
    const amount = formatMoney(topup.amount);
    const entry = await creditAccount(tx, {
      accountId: topup.accountId,
      amount,
      description: TOPUP_DESCRIPTION,
      ...(topup.idempotencyKey === null ? {} : { idempotencyKey: `topup:${topup.idempotencyKey}` }),
    });
    const [row] = await tx
      .select()
      .from(accountTransactions)
      .where(and(eq(accountTransactions.accountId, topup.accountId), eq(accountTransactions.id, entry.transactionId)))
      .limit(1);
    if (!row) throw notFound('The top-up');
    if (entry.duplicate && formatMoney(row.amount) !== amount) throw new AppError(409, 'conflict', IDEMPOTENCY_KEY_REUSED_MESSAGE);
    return { balance: entry.balanceAfter, charge: presentCharge(row), duplicate: entry.duplicate };
  });
}
