import { eq } from 'drizzle-orm';
import type { Db } from '../../../platform/db/client.js';
import { accounts, billingCustomers, type BillingCustomerRow } from '../../../platform/db/schema/index.js';
import { notFound } from '../../../platform/errors.js';
import type { PaymentProvider } from './provider.js';

/** The account's customer record, if it has one with this provider. */
export async function customerOf(db: Db, provider: PaymentProvider, accountId: string): Promise<BillingCustomerRow | null> {
  const [row] = await db.select().from(billingCustomers).where(eq(billingCustomers.accountId, accountId)).limit(1);
  return row && row.provider === provider.name ? row : null;
}

/**
 * The account's customer at the provider, made on first need. The create's idempotency key is the account,
 * so two requests racing make one customer; a deployment that changed provider starts the account afresh.
 */
export async function ensureCustomer(db: Db, provider: PaymentProvider, accountId: string): Promise<BillingCustomerRow> {
  const existing = await customerOf(db, provider, accountId);
  if (existing) return existing;
  const [account] = await db.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, accountId)).limit(1);
  if (!account) throw notFound('The account');
  const customerId = await provider.createCustomer({ accountId, name: account.name }, `customer:${accountId}`);
  const fresh = { accountId, provider: provider.name, customerId, updatedAt: new Date() };
  const [row] = await db
    .insert(billingCustomers)
    .values(fresh)
    .onConflictDoUpdate({
      target: billingCustomers.accountId,
      set: {
        ...fresh,
        paymentMethodId: null,
        cardBrand: null,
        cardLast4: null,
        cardExpMonth: null,
        cardExpYear: null,
        subscriptionId: null,
        subscriptionStatus: null,
        subscriptionPlanId: null,
        currentPeriodEnd: null,
      },
      setWhere: eq(billingCustomers.provider, provider.name === 'sandbox' ? 'stripe' : 'sandbox'),
    })
    .returning();
  if (row) return row;
  const again = await customerOf(db, provider, accountId);
  if (!again) throw notFound('The payment customer');
  return again;
}
