import { formatMoney, type AccountBilling } from '@parley/shared';
import type { AppContext } from '../../platform/context.js';
import { customerOf } from './payments/customers.js';
import { paymentsOf } from './payments/factory.js';
import { presentPaymentSource } from './presenters.js';

function amountOf(value: unknown): string | null {
  const text = typeof value === 'number' ? String(value) : value;
  return typeof text === 'string' && /^\d+(\.\d{1,4})?$/.test(text) ? formatMoney(text) : null;
}

/** The auto top-up rule as the account's options keep it (USD amounts), or null when it is off. */
function ruleOf(options: unknown): { below: string; amount: string } | null {
  if (typeof options !== 'object' || options === null || !('autotopup' in options)) return null;
  const rule = options.autotopup;
  if (typeof rule !== 'object' || rule === null || !('below' in rule) || !('amount' in rule)) return null;
  const below = amountOf(rule.below);
  const amount = amountOf(rule.amount);
  return below === null || amount === null ? null : { below, amount };
}

/**
 * The billing part of the account record (spec's Account: paymentSource, subscription.activeUntil,
 * options.autotopup): the card and subscription as the deployment's provider last confirmed them, and the
 * auto top-up rule kept in the account's options (`options` is the row the caller already loaded).
 */
export async function accountBillingOf(ctx: AppContext, accountId: string, options: unknown): Promise<AccountBilling> {
  const customer = await customerOf(ctx.database.db, paymentsOf(ctx), accountId);
  const rule = ruleOf(options);
  return {
    paymentSource: presentPaymentSource(customer),
    subscription:
      customer?.subscriptionId == null
        ? null
        : {
            planId: customer.subscriptionPlanId,
            status: customer.subscriptionStatus,
            activeUntil: customer.currentPeriodEnd?.toISOString() ?? null,
          },
    autotopup: rule === null ? null : { ...rule, stopped: customer?.autoTopupStoppedAt != null },
  };
}
