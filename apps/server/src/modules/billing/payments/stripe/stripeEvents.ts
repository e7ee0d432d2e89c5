import type Stripe from 'stripe';
import { fromCents, type Card, type PaymentStatus, type ProviderChange } from '../provider.js';

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value === null || value === undefined ? null : typeof value === 'string' ? value : value.id;

function paymentChange(intent: Stripe.PaymentIntent, status: PaymentStatus): ProviderChange {
  return {
    kind: 'payment',
    providerPaymentId: intent.id,
    paymentId: 'paymentId' in intent.metadata ? intent.metadata.paymentId : null,
    status,
    error: status === 'failed' ? (intent.last_payment_error?.message ?? 'The payment failed.') : null,
  };
}

function invoiceChange(invoice: Stripe.Invoice): ProviderChange | null {
  const customerId = idOf(invoice.customer);
  if (customerId === null) return null;
  return {
    kind: 'invoice',
    customerId,
    invoice: {
      providerInvoiceId: invoice.id,
      description: invoice.description ?? invoice.lines.data[0]?.description ?? 'Invoice',
      lines: invoice.lines.data.map((line) => ({ id: line.id, description: line.description ?? '', amount: fromCents(line.amount) })),
      total: fromCents(invoice.total),
      status: invoice.status ?? 'draft',
      error: invoice.last_finalization_error?.message ?? null,
      pdfUrl: invoice.invoice_pdf ?? null,
      receiptUrl: invoice.hosted_invoice_url ?? null,
      issuedAt: new Date(invoice.created * 1000),
    },
  };
}

function subscriptionChange(subscription: Stripe.Subscription): ProviderChange | null {
  const customerId = idOf(subscription.customer);
  if (customerId === null) return null;
  const end = subscription.items.data[0]?.current_period_end;
  return {
    kind: 'subscription',
    customerId,
    subscriptionId: subscription.id,
    planId: subscription.metadata.planId ?? null,
    status: subscription.status,
    currentPeriodEnd: end === undefined ? null : new Date(end * 1000),
  };
}

async function cardChange(intent: Stripe.SetupIntent, retrieve: (id: string) => Promise<Stripe.PaymentMethod>): Promise<ProviderChange | null> {
  const customerId = idOf(intent.customer);
  const methodId = idOf(intent.payment_method);
  if (customerId === null || methodId === null) return null;
  const method = typeof intent.payment_method === 'object' && intent.payment_method !== null ? intent.payment_method : await retrieve(methodId);
  if (!method.card) return null;
  const card: Card = { brand: method.card.brand, last4: method.card.last4, expMonth: method.card.exp_month, expYear: method.card.exp_year };
  return { kind: 'card', customerId, paymentMethodId: methodId, card };
}

/** PaymentIntent events and the status each reports. */
const paymentStatusOfEvent: Partial<Record<Stripe.Event.Type, PaymentStatus>> = {
  'payment_intent.succeeded': 'succeeded',
  'payment_intent.processing': 'processing',
  'payment_intent.requires_action': 'requiresAction',
  'payment_intent.payment_failed': 'failed',
  'payment_intent.canceled': 'failed',
};

const invoiceEvents: ReadonlySet<Stripe.Event.Type> = new Set<Stripe.Event.Type>([
  'invoice.finalized',
  'invoice.paid',
  'invoice.payment_failed',
  'invoice.updated',
  'invoice.voided',
]);

/**
 * What a Stripe event changes for us; null for the types we do not act on. The events to send are listed in
 * docs/billing.md (Stripe's dashboard, webhook endpoint).
 */
export async function changeOfEvent(event: Stripe.Event, retrieve: (id: string) => Promise<Stripe.PaymentMethod>): Promise<ProviderChange | null> {
  const paymentStatus = paymentStatusOfEvent[event.type];
  if (paymentStatus !== undefined) return paymentChange(event.data.object as Stripe.PaymentIntent, paymentStatus);
  if (event.type === 'setup_intent.succeeded') return cardChange(event.data.object, retrieve);
  if (event.type === 'setup_intent.setup_failed') {
    const customerId = idOf(event.data.object.customer);
    return customerId === null ? null : { kind: 'cardFailed', customerId, error: event.data.object.last_setup_error?.message ?? 'The card could not be set up.' };
  }
  if (event.type === 'customer.subscription.created' || event.type === 'customer.subscription.updated' || event.type === 'customer.subscription.deleted') {
    return subscriptionChange(event.data.object);
  }
  if (invoiceEvents.has(event.type)) return invoiceChange(event.data.object as Stripe.Invoice);
  return null;
}
