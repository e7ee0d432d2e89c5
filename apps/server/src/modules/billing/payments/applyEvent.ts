import { and, eq, notInArray, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { formatMoney } from '@parley/shared';
import type { Db, Tx } from '../../../platform/db/client.js';
import { accounts, billingCustomers, billingEvents, billingInvoices, billingPayments } from '../../../platform/db/schema/index.js';
import { creditAccount } from '../ledger.js';
import type { ProviderChange, ProviderEvent, ProviderName } from './provider.js';

export const TOPUP_CREDIT_DESCRIPTION = 'Top-up';
export const AUTO_TOPUP_CREDIT_DESCRIPTION = 'Auto top-up';

export interface AppliedEvent {
  /** False: the event id had been applied before; nothing changed this time. */
  applied: boolean;
  /** Set when a payment of an auto top-up failed: the rule stopped and the administrators are to be told. */
  autoTopupFailed: { accountId: string; error: string } | null;
}

/**
 * The one path provider events take into the application (docs/billing.md), whether Stripe's webhook or the
 * sandbox's delivery brought them. In one transaction: the event id is written first, so an event delivered
 * again changes nothing; then what it says is applied. Events may arrive in any order: a payment's final state
 * is never moved back, and its credit is keyed by the payment, so it is written once whatever arrives.
 */
export async function applyProviderEvent(db: Db, event: ProviderEvent): Promise<AppliedEvent> {
  return db.transaction(async (tx) => {
    const [fresh] = await tx
      .insert(billingEvents)
      .values({ provider: event.provider, eventId: event.id, type: event.type })
      .onConflictDoNothing()
      .returning({ eventId: billingEvents.eventId });
    if (!fresh) return { applied: false, autoTopupFailed: null };
    const autoTopupFailed = event.change === null ? null : await applyChange(tx, event.provider, event.change);
    return { applied: true, autoTopupFailed };
  });
}

async function applyChange(tx: Tx, provider: ProviderName, change: ProviderChange): Promise<AppliedEvent['autoTopupFailed']> {
  switch (change.kind) {
    case 'payment':
      return applyPayment(tx, provider, change);
    case 'card':
      await tx
        .update(billingCustomers)
        .set({
          paymentMethodId: change.paymentMethodId,
          cardBrand: change.card.brand,
          cardLast4: change.card.last4,
          cardExpMonth: change.card.expMonth,
          cardExpYear: change.card.expYear,
          // A new card gives a stopped auto top-up another chance.
          autoTopupStoppedAt: null,
          updatedAt: new Date(),
        })
        .where(and(eq(billingCustomers.provider, provider), eq(billingCustomers.customerId, change.customerId)));
      return null;
    case 'cardFailed':
      return null;
    case 'subscription':
      await applySubscription(tx, provider, change);
      return null;
    case 'invoice':
      await applyInvoice(tx, provider, change);
      return null;
  }
}

type PaymentChange = Extract<ProviderChange, { kind: 'payment' }>;

async function applyPayment(tx: Tx, provider: ProviderName, change: PaymentChange): Promise<AppliedEvent['autoTopupFailed']> {
  // Our payment id travels in the provider's metadata: an event that comes before the provider's answer to
  // the create call (Stripe may be that quick) still finds its payment.
  const [payment] = await tx
    .select()
    .from(billingPayments)
    .where(
      and(
        eq(billingPayments.provider, provider),
        change.paymentId === null ? eq(billingPayments.providerPaymentId, change.providerPaymentId) : eq(billingPayments.id, change.paymentId),
      ),
    )
    .for('update')
    .limit(1);
  // A payment this server did not ask for (another application on the same Stripe account): nothing to do.
  if (!payment) return null;
  if (payment.status === 'succeeded' || payment.status === 'failed') return null;
  await tx
    .update(billingPayments)
    .set({ status: change.status, error: change.error, providerPaymentId: change.providerPaymentId, updatedAt: new Date() })
    .where(and(eq(billingPayments.id, payment.id), notInArray(billingPayments.status, ['succeeded', 'failed'])));
  if (change.status === 'succeeded') {
    await creditAccount(tx, {
      accountId: payment.accountId,
      amount: formatMoney(payment.amount),
      description: payment.purpose === 'autoTopup' ? AUTO_TOPUP_CREDIT_DESCRIPTION : TOPUP_CREDIT_DESCRIPTION,
      idempotencyKey: `payment:${payment.id}`,
    });
    return null;
  }
  if (change.status === 'failed' && payment.purpose === 'autoTopup') {
    await tx
      .update(billingCustomers)
      .set({ autoTopupStoppedAt: new Date(), updatedAt: new Date() })
      .where(eq(billingCustomers.accountId, payment.accountId));
    return { accountId: payment.accountId, error: change.error ?? 'The payment failed.' };
  }
  return null;
}

type SubscriptionChange = Extract<ProviderChange, { kind: 'subscription' }>;

async function applySubscription(tx: Tx, provider: ProviderName, change: SubscriptionChange): Promise<void> {
  const [customer] = await tx
    .update(billingCustomers)
    .set({
      subscriptionId: change.subscriptionId,
      subscriptionStatus: change.status,
      ...(change.planId === null ? {} : { subscriptionPlanId: change.planId }),
      currentPeriodEnd: change.currentPeriodEnd,
      updatedAt: new Date(),
    })
    .where(and(eq(billingCustomers.provider, provider), eq(billingCustomers.customerId, change.customerId)))
    .returning({ accountId: billingCustomers.accountId });
  if (!customer || change.planId === null || change.status !== 'active') return;
  await tx.update(accounts).set({ planId: change.planId, updatedAt: new Date() }).where(eq(accounts.id, customer.accountId));
}

type InvoiceChange = Extract<ProviderChange, { kind: 'invoice' }>;

async function applyInvoice(tx: Tx, provider: ProviderName, change: InvoiceChange): Promise<void> {
  const [customer] = await tx
    .select({ accountId: billingCustomers.accountId })
    .from(billingCustomers)
    .where(and(eq(billingCustomers.provider, provider), eq(billingCustomers.customerId, change.customerId)))
    .limit(1);
  if (!customer) return;
  const invoice = change.invoice;
  await tx
    .insert(billingInvoices)
    .values({
      id: uuidv7(),
      accountId: customer.accountId,
      provider,
      providerInvoiceId: invoice.providerInvoiceId,
      description: invoice.description,
      lines: invoice.lines,
      total: formatMoney(invoice.total),
      status: invoice.status,
      error: invoice.error,
      pdfUrl: invoice.pdfUrl,
      receiptUrl: invoice.receiptUrl,
      issuedAt: new Date(invoice.issuedAt),
    })
    .onConflictDoUpdate({
      target: [billingInvoices.provider, billingInvoices.providerInvoiceId],
      set: {
        status: sql`excluded.status`,
        error: sql`excluded.error`,
        total: sql`excluded.total`,
        lines: sql`excluded.lines`,
        pdfUrl: sql`excluded.pdf_url`,
        receiptUrl: sql`excluded.receipt_url`,
      },
    });
}
