import { and, eq } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { formatMoney } from '@parley/shared';
import type { Db } from '../../platform/db/client.js';
import { accounts, billingPayments, type BillingPaymentRow } from '../../platform/db/schema/index.js';
import { AppError, notFound } from '../../platform/errors.js';
import { ensureCustomer } from './payments/customers.js';
import type { PaymentProvider } from './payments/provider.js';
import { requireVerifiedPayer } from './verifiedPayer.js';

export const IDEMPOTENCY_KEY_REUSED_MESSAGE = 'This Idempotency-Key was already used for another amount.';
export const NO_PAYMENT_METHOD_MESSAGE = 'Add a payment card first: there is no payment method on this account.';
export const TOPUP_DESCRIPTION = 'Balance top-up';

export interface TopupRequest {
  accountId: string;
  /** The person paying; null for an API client. */
  userId: string | null;
  /** A decimal string, already checked against the bounds. */
  amount: string;
  idempotencyKey: string | null;
}

export interface TopupOutcome {
  payment: BillingPaymentRow;
  /** The provider's secret for the card holder's authentication, when it asks for one. */
  clientSecret: string | null;
  /** The balance now: unchanged until the provider confirms the payment. */
  balance: string;
  duplicate: boolean;
}

/**
 * Asks the provider for a top-up with the account's card (docs/billing.md). The payment is written first,
 * keyed by the Idempotency-Key, then asked of the provider with a key of its own; the balance moves when the
 * provider's event confirms it. A retry with the same key answers the same payment (asking the provider
 * again, with the same key, if the first attempt never got its answer); the key with another amount is refused.
 */
export async function requestTopup(db: Db, provider: PaymentProvider, request: TopupRequest): Promise<TopupOutcome> {
  await requireVerifiedPayer(db, request.userId);
  const amount = formatMoney(request.amount);
  const key = request.idempotencyKey ?? randomUUID();
  const customer = await ensureCustomer(db, provider, request.accountId);
  if (customer.paymentMethodId === null) throw new AppError(402, 'bad_request', NO_PAYMENT_METHOD_MESSAGE);

  const [inserted] = await db
    .insert(billingPayments)
    .values({ id: uuidv7(), accountId: request.accountId, provider: provider.name, purpose: 'topup', amount, status: 'processing', idempotencyKey: key })
    .onConflictDoNothing()
    .returning();
  const payment = inserted ?? (await paymentByKey(db, request.accountId, key));
  if (formatMoney(payment.amount) !== amount) throw new AppError(409, 'conflict', IDEMPOTENCY_KEY_REUSED_MESSAGE);
  const duplicate = inserted === undefined;

  let clientSecret: string | null = null;
  let current = payment;
  if (payment.providerPaymentId === null) {
    const result = await provider.createPayment(
      {
        accountId: request.accountId,
        customerId: customer.customerId,
        paymentMethodId: customer.paymentMethodId,
        paymentId: payment.id,
        amount,
        description: TOPUP_DESCRIPTION,
        offSession: false,
      },
      `payment:${payment.id}`,
    );
    clientSecret = result.clientSecret;
    const [updated] = await db
      .update(billingPayments)
      // An event may have settled the payment meanwhile: only a payment still processing takes the answer's status.
      .set({ providerPaymentId: result.providerPaymentId, updatedAt: new Date(), ...(payment.status === 'processing' ? { status: result.status, error: result.error } : {}) })
      .where(and(eq(billingPayments.id, payment.id), eq(billingPayments.status, 'processing')))
      .returning();
    current = updated ?? (await paymentByKey(db, request.accountId, key));
  }
  const [account] = await db.select({ balance: accounts.balance }).from(accounts).where(eq(accounts.id, request.accountId)).limit(1);
  if (!account) throw notFound('The account');
  return { payment: current, clientSecret, balance: formatMoney(account.balance), duplicate };
}

async function paymentByKey(db: Db, accountId: string, key: string): Promise<BillingPaymentRow> {
  const [row] = await db
    .select()
    .from(billingPayments)
    .where(and(eq(billingPayments.accountId, accountId), eq(billingPayments.idempotencyKey, key)))
    .limit(1);
  if (!row) throw notFound('The payment');
  return row;
}
