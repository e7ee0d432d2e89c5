import { and, eq } from 'drizzle-orm';
import { formatMoney } from '@parley/shared';
import type { Db } from '../../platform/db/client.js';
import { accounts, billingCustomers, plans } from '../../platform/db/schema/index.js';
import { AppError, notFound } from '../../platform/errors.js';
import { ensureCustomer } from './payments/customers.js';
import type { PaymentProvider } from './payments/provider.js';
import { NO_PAYMENT_METHOD_MESSAGE } from './topup.js';
import { requireVerifiedPayer } from './verifiedPayer.js';

export const ALREADY_ON_PLAN_MESSAGE = 'The account is already on this plan.';

export interface PlanChangeOutcome {
  status: 'processing' | 'requiresAction';
  clientSecret: string | null;
}

/**
 * Moves the account's subscription to another listed plan (docs/billing.md). The provider prorates and
 * charges the card on file; the account's plan changes when its subscription event confirms it.
 */
export async function changePlan(
  db: Db,
  provider: PaymentProvider,
  request: { accountId: string; userId: string | null; planId: string; segmentUnderstanding: string },
): Promise<PlanChangeOutcome> {
  await requireVerifiedPayer(db, request.userId);
  const [plan] = await db
    .select()
    .from(plans)
    .where(and(eq(plans.id, request.planId), eq(plans.listed, true), eq(plans.isTrial, false)))
    .limit(1);
  if (!plan) throw notFound('The plan');
  const [account] = await db.select({ planId: accounts.planId }).from(accounts).where(eq(accounts.id, request.accountId)).limit(1);
  if (!account) throw notFound('The account');
  const customer = await ensureCustomer(db, provider, request.accountId);
  if (account.planId === plan.id && customer.subscriptionStatus === 'active') throw new AppError(409, 'conflict', ALREADY_ON_PLAN_MESSAGE);
  if (customer.paymentMethodId === null) throw new AppError(402, 'bad_request', NO_PAYMENT_METHOD_MESSAGE);

  const result = await provider.changeSubscription(
    {
      accountId: request.accountId,
      customerId: customer.customerId,
      paymentMethodId: customer.paymentMethodId,
      subscriptionId: customer.subscriptionId,
      plan: { id: plan.id, name: plan.name, price: formatMoney(plan.price) },
    },
    `plan:${request.accountId}:${plan.id}:${request.segmentUnderstanding}`,
  );
  if (result.status === 'failed') throw new AppError(402, 'bad_request', result.error ?? 'The plan could not be paid.');
  if (customer.subscriptionId === null && result.subscriptionId !== '') {
    await db
      .update(billingCustomers)
      .set({ subscriptionId: result.subscriptionId, updatedAt: new Date() })
      .where(and(eq(billingCustomers.accountId, request.accountId), eq(billingCustomers.customerId, customer.customerId)));
  }
  return { status: result.status === 'active' ? 'processing' : 'requiresAction', clientSecret: result.clientSecret };
}
