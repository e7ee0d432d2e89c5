import Stripe from 'stripe';
import {
  toCents,
  WebhookRefusedError,
  type CardSetupInput,
  type CardSetupResult,
  type CustomerInput,
  type PaymentInput,
  type PaymentProvider,
  type PaymentResult,
  type PaymentStatus,
  type ProviderEvent,
  type SubscriptionInput,
  type SubscriptionResult,
} from '../provider.js';
import { changeOfEvent } from './stripeEvents.js';

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** Another API host (a local peer in tests); null: Stripe's own. */
  api: { host: string; port: number; protocol: 'http' | 'https' } | null;
}

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value === null || value === undefined ? null : typeof value === 'string' ? value : value.id;

/** A card error's message, or null for other errors (which are thrown on). */
function cardErrorOf(error: unknown): { message: string; paymentIntentId: string | null } | null {
  if (error instanceof Stripe.errors.StripeCardError) {
    const raw = error.raw as { payment_intent?: { id?: string } } | undefined;
    return { message: error.message, paymentIntentId: raw?.payment_intent?.id ?? null };
  }
  return null;
}

function paymentStatusOf(status: Stripe.PaymentIntent.Status): PaymentStatus {
  switch (status) {
    case 'requires_action':
    case 'requires_confirmation':
      return 'requiresAction';
    case 'requires_payment_method':
    case 'canceled':
      return 'failed';
    // Even a payment Stripe calls succeeded at once waits for its webhook: the balance moves on one path.
    case 'succeeded':
    case 'processing':
    case 'requires_capture':
    default:
      return 'processing';
  }
}

/**
 * Stripe through its official library (docs/billing.md): customers, SetupIntents for the card,
 * PaymentIntents for top-ups, Subscriptions for plans. Every create carries an idempotency key; outcomes
 * arrive as webhooks, verified with the library and read by changeOfEvent.
 */
export class StripeProvider implements PaymentProvider {
  readonly name = 'stripe' as const;
  private readonly stripe: Stripe;

  constructor(private readonly settings: StripeSettings) {
    this.stripe = new Stripe(settings.secretKey, {
      maxNetworkRetries: 2,
      telemetry: false,
      ...(settings.api === null ? {} : { host: settings.api.host, port: settings.api.port, protocol: settings.api.protocol }),
    });
  }

  async createCustomer(input: CustomerInput, idempotencyKey: string): Promise<string> {
    const customer = await this.stripe.customers.create({ name: input.name, metadata: { accountId: input.accountId } }, { idempotencyKey });
    return customer.id;
  }

  async setupCard(input: CardSetupInput, idempotencyKey: string): Promise<CardSetupResult> {
    try {
      const intent = await this.stripe.setupIntents.create(
        {
          customer: input.customerId,
          payment_method: input.tokenId,
          usage: 'off_session',
          confirm: true,
          metadata: { accountId: input.accountId },
        },
        { idempotencyKey },
      );
      switch (intent.status) {
        case 'succeeded':
        case 'processing':
          return { setupId: intent.id, status: 'succeeded', clientSecret: null, error: null };
        case 'requires_action':
        case 'requires_confirmation':
          return { setupId: intent.id, status: 'requiresAction', clientSecret: intent.client_secret, error: null };
        case 'requires_payment_method':
        case 'canceled':
        default:
          return { setupId: intent.id, status: 'failed', clientSecret: null, error: intent.last_setup_error?.message ?? 'The card could not be set up.' };
      }
    } catch (error) {
      const card = cardErrorOf(error);
      if (!card) throw error;
      return { setupId: '', status: 'failed', clientSecret: null, error: card.message };
    }
  }

  async createPayment(input: PaymentInput, idempotencyKey: string): Promise<PaymentResult> {
    try {
      const intent = await this.stripe.paymentIntents.create(
        {
          amount: toCents(input.amount),
          currency: 'usd',
          customer: input.customerId,
          payment_method: input.paymentMethodId,
          confirm: true,
          ...(input.offSession ? { off_session: true } : {}),
          description: input.description,
          metadata: { accountId: input.accountId, paymentId: input.paymentId },
        },
        { idempotencyKey },
      );
      const status = paymentStatusOf(intent.status);
      return {
        providerPaymentId: intent.id,
        status,
        clientSecret: status === 'requiresAction' ? intent.client_secret : null,
        error: status === 'failed' ? (intent.last_payment_error?.message ?? 'The payment failed.') : null,
      };
    } catch (error) {
      const card = cardErrorOf(error);
      if (!card) throw error;
      return { providerPaymentId: card.paymentIntentId ?? `failed_${idempotencyKey}`, status: 'failed', clientSecret: null, error: card.message };
    }
  }

  async changeSubscription(input: SubscriptionInput, idempotencyKey: string): Promise<SubscriptionResult> {
    const price = await this.planPrice(input.plan);
    const metadata = { accountId: input.accountId, planId: input.plan.id };
    // The invoice's PaymentIntent, to tell a payment waiting for its holder's authentication from a decline.
    const expand = ['latest_invoice.confirmation_secret', 'latest_invoice.payments'];
    try {
      let subscription: Stripe.Subscription;
      if (input.subscriptionId === null) {
        subscription = await this.stripe.subscriptions.create(
          { customer: input.customerId, items: [{ price }], default_payment_method: input.paymentMethodId, metadata, expand },
          { idempotencyKey },
        );
      } else {
        const current = await this.stripe.subscriptions.retrieve(input.subscriptionId);
        if (idOf(current.default_payment_method) !== input.paymentMethodId) {
          // A pending update takes no card: the card is set on its own first (no invoice).
          await this.stripe.subscriptions.update(input.subscriptionId, { default_payment_method: input.paymentMethodId }, { idempotencyKey: `${idempotencyKey}:card` });
        }
        const item = current.items.data[0];
        subscription = await this.stripe.subscriptions.update(
          input.subscriptionId,
          {
            items: [item === undefined ? { price } : { id: item.id, price }],
            // Proration as Stripe computes it, charged at once rather than on the next invoice.
            proration_behavior: 'always_invoice',
            // The new price (and the plan in metadata) applies only once that invoice is paid, so a payment
            // waiting for authentication or declined leaves the account on its plan.
            payment_behavior: 'pending_if_incomplete',
            metadata,
            expand,
          },
          { idempotencyKey },
        );
      }
      return await this.subscriptionResult(subscription);
    } catch (error) {
      const card = cardErrorOf(error);
      if (!card) throw error;
      return { subscriptionId: input.subscriptionId ?? '', status: 'failed', clientSecret: null, error: card.message };
    }
  }

  /** What a created or updated subscription means for us: paid, waiting for its card holder, or failed. */
  private async subscriptionResult(subscription: Stripe.Subscription): Promise<SubscriptionResult> {
    const invoice = typeof subscription.latest_invoice === 'object' ? subscription.latest_invoice : null;
    if (subscription.status === 'incomplete' || subscription.pending_update !== null) {
      const intent = await this.invoiceIntent(invoice);
      if (intent !== null && paymentStatusOf(intent.status) === 'requiresAction') {
        return { subscriptionId: subscription.id, status: 'requiresAction', clientSecret: invoice?.confirmation_secret?.client_secret ?? intent.client_secret, error: null };
      }
      return { subscriptionId: subscription.id, status: 'failed', clientSecret: null, error: intent?.last_payment_error?.message ?? 'The plan could not be paid.' };
    }
    switch (subscription.status) {
      case 'active':
      case 'trialing':
        return { subscriptionId: subscription.id, status: 'active', clientSecret: null, error: null };
      case 'past_due':
      case 'unpaid':
      case 'canceled':
      case 'incomplete_expired':
      case 'paused':
      default:
        return { subscriptionId: subscription.id, status: 'failed', clientSecret: null, error: 'The plan could not be paid.' };
    }
  }

  /** The PaymentIntent paying an invoice (its open payment), or null. */
  private async invoiceIntent(invoice: Stripe.Invoice | null): Promise<Stripe.PaymentIntent | null> {
    const payment = invoice?.payments?.data.find((p) => p.payment.type === 'payment_intent')?.payment.payment_intent;
    if (payment === undefined) return null;
    return typeof payment === 'string' ? this.stripe.paymentIntents.retrieve(payment) : payment;
  }

  /**
   * Verifies a webhook with the library (signature and a timestamp within 5 minutes) and reads what it
   * changes. Throws WebhookRefusedError for an unsigned, tampered or old delivery.
   */
  async readWebhook(rawBody: string, signature: string | undefined): Promise<ProviderEvent> {
    if (signature === undefined || signature === '') throw new WebhookRefusedError('The Stripe-Signature header is missing.');
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(rawBody, signature, this.settings.webhookSecret);
    } catch (error) {
      throw new WebhookRefusedError(error instanceof Error ? error.message : 'The webhook signature does not hold.');
    }
    return { provider: 'stripe', id: event.id, type: event.type, change: await changeOfEvent(event, (id) => this.stripe.paymentMethods.retrieve(id)) };
  }

  /** The monthly price of a plan, found by its lookup key (the price in cents is in the key, so a new price is a new key). */
  private async planPrice(plan: SubscriptionInput['plan']): Promise<string> {
    const cents = toCents(plan.price);
    const lookupKey = `parley_plan_${plan.id}_${String(cents)}`;
    const found = await this.stripe.prices.list({ lookup_keys: [lookupKey], limit: 1 });
    const existing = found.data[0];
    if (existing) return existing.id;
    const created = await this.stripe.prices.create(
      { currency: 'usd', unit_amount: cents, recurring: { interval: 'month' }, lookup_key: lookupKey, product_data: { name: `${plan.name} plan` } },
      { idempotencyKey: `price:${lookupKey}` },
    );
    return created.id;
  }
}

