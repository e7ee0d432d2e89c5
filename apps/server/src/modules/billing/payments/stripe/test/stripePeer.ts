import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/*
 * A local server answering as Stripe's API (https://docs.stripe.com/api) for the calls Parley makes, with
 * Stripe's form-encoded requests, object shapes, card errors and idempotent replays; it keeps the events
 * Stripe would send, for the test to deliver signed as Stripe signs them.
 */

type StripeObject = Record<string, unknown> & { id: string; object: string };

interface TestCard {
  brand: string;
  last4: string;
  behaviour: 'succeeds' | 'declines' | 'declinesCharges' | 'requiresAuthentication';
}

/** Stripe's test PaymentMethods (https://docs.stripe.com/testing). */
const testPaymentMethods: Record<string, TestCard> = {
  pm_card_visa: { brand: 'visa', last4: '4242', behaviour: 'succeeds' },
  pm_card_chargeDeclined: { brand: 'visa', last4: '0002', behaviour: 'declines' },
  pm_card_chargeCustomerFail: { brand: 'visa', last4: '0341', behaviour: 'declinesCharges' },
  pm_card_authenticationRequired: { brand: 'visa', last4: '3184', behaviour: 'requiresAuthentication' },
};

export interface PeerRequest {
  method: string;
  path: string;
  idempotencyKey: string | null;
  params: URLSearchParams;
}

/** Parameters a pending update takes (https://docs.stripe.com/billing/subscriptions/pending-updates-reference; metadata since 2026-05-27). */
const pendingUpdateParams = /^(expand|payment_behavior|proration_behavior|proration_date|billing_cycle_anchor|items|trial_end|trial_from_plan|add_invoice_items|metadata)(\[|$)/;

class InvalidRequestError extends Error {}

class CardError extends Error {
  constructor(
    message: string,
    readonly extra: Record<string, unknown>,
  ) {
    super(message);
  }
}

export class StripePeer {
  readonly secretKey = 'sk_test_peer0000000000000000';
  readonly webhookSecret = 'whsec_peer0000000000000000';
  /** The key a browser's Stripe.js would use with this account (nothing checks it here). */
  readonly publishableKey = 'pk_test_peer0000000000000000';
  readonly requests: PeerRequest[] = [];
  /** Events in the order Stripe would send them. */
  readonly events: Stripe.Event[] = [];
  private readonly objects = new Map<string, StripeObject>();
  private readonly replies = new Map<string, { status: number; body: string }>();
  private readonly cards = new Map<string, TestCard>();
  private serial = 0;
  private server: http.Server | null = null;
  port = 0;

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const { status, body } = this.answer(req, Buffer.concat(chunks).toString('utf8'));
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${String(++this.serial)}` });
        res.end(body);
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (server === null) return;
    await new Promise<void>((resolve) => {
      server.close(() => {
        resolve();
      });
    });
  }

  /** The body and Stripe-Signature header of an event, signed with the endpoint's secret (or another). */
  signed(event: Stripe.Event, options: { secret?: string; timestamp?: number } = {}): { payload: string; signature: string } {
    const payload = JSON.stringify(event, null, 2);
    const signature = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? this.webhookSecret,
      ...(options.timestamp === undefined ? {} : { timestamp: options.timestamp }),
    });
    return { payload, signature };
  }

  eventsOfType(type: string): Stripe.Event[] {
    return this.events.filter((e) => e.type === type);
  }

  private answer(req: http.IncomingMessage, raw: string): { status: number; body: string } {
    const url = new URL(req.url ?? '/', 'http://peer');
    const method = req.method ?? 'GET';
    const keyHeader = req.headers['idempotency-key'];
    const idempotencyKey = typeof keyHeader === 'string' ? keyHeader : null;
    const params = method === 'GET' ? url.searchParams : new URLSearchParams(raw);
    this.requests.push({ method, path: url.pathname, idempotencyKey, params });
    if (req.headers.authorization !== `Bearer ${this.secretKey}`) {
      return { status: 401, body: JSON.stringify({ error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } }) };
    }
    // Stripe replays the first answer to a request repeated with its idempotency key.
    const replayKey = idempotencyKey === null ? null : `${method} ${url.pathname} ${idempotencyKey}`;
    const replay = replayKey === null ? undefined : this.replies.get(replayKey);
    if (replay) return replay;
    let reply: { status: number; body: string };
    try {
      reply = { status: 200, body: JSON.stringify(this.route(method, url.pathname, params)) };
    } catch (error) {
      if (error instanceof CardError) {
        reply = { status: 402, body: JSON.stringify({ error: { type: 'card_error', message: error.message, ...error.extra } }) };
      } else if (error instanceof InvalidRequestError) {
        reply = { status: 400, body: JSON.stringify({ error: { type: 'invalid_request_error', message: error.message } }) };
      } else {
        reply = { status: 404, body: JSON.stringify({ error: { type: 'invalid_request_error', message: error instanceof Error ? error.message : 'No such object' } }) };
      }
    }
    if (replayKey !== null && method === 'POST') this.replies.set(replayKey, reply);
    return reply;
  }

  private route(method: string, path: string, p: URLSearchParams): StripeObject | Record<string, unknown> {
    const [, , resource, id] = path.split('/');
    if (method === 'POST' && resource === 'customers' && id === undefined) {
      return this.save({ id: this.newId('cus'), object: 'customer', name: p.get('name'), metadata: this.metadata(p) });
    }
    if (method === 'POST' && resource === 'setup_intents') return this.setupIntent(p);
    if (method === 'GET' && resource === 'payment_methods' && id !== undefined) return this.get(id);
    if (method === 'POST' && resource === 'payment_intents') return this.paymentIntent(p);
    if (method === 'GET' && resource === 'payment_intents' && id !== undefined) return this.get(id);
    if (method === 'GET' && resource === 'prices') {
      const keys = [...p.entries()].filter(([k]) => k.startsWith('lookup_keys[')).map(([, v]) => v);
      const data = [...this.objects.values()].filter((o) => o.object === 'price' && keys.includes(String(o.lookup_key)));
      return { object: 'list', data, has_more: false, url: '/v1/prices' };
    }
    if (method === 'POST' && resource === 'prices') {
      return this.save({ id: this.newId('price'), object: 'price', lookup_key: p.get('lookup_key'), unit_amount: Number(p.get('unit_amount')), currency: 'usd' });
    }
    if (resource === 'subscriptions' && method === 'GET' && id !== undefined) return this.get(id);
    if (resource === 'subscriptions' && method === 'POST') return this.subscription(p, id);
    throw new Error(`No such route: ${method} ${path}`);
  }

  private setupIntent(p: URLSearchParams): StripeObject {
    const token = p.get('payment_method') ?? '';
    const card = testPaymentMethods[token];
    if (!card) throw new Error(`No such PaymentMethod: '${token}'`);
    const methodId = this.newId('pm');
    this.cards.set(methodId, card);
    this.save({ id: methodId, object: 'payment_method', type: 'card', customer: p.get('customer'), card: { brand: card.brand, last4: card.last4, exp_month: 12, exp_year: 2031 } });
    const id = this.newId('seti');
    const intent: StripeObject = { id, object: 'setup_intent', customer: p.get('customer'), payment_method: methodId, metadata: this.metadata(p), client_secret: `${id}_secret_x`, last_setup_error: null, status: 'succeeded' };
    if (card.behaviour === 'declines') {
      const failed = { ...intent, status: 'requires_payment_method', last_setup_error: { message: 'Your card was declined.' } };
      this.emit('setup_intent.setup_failed', this.save(failed));
      throw new CardError('Your card was declined.', { code: 'card_declined', decline_code: 'generic_decline', setup_intent: failed });
    }
    if (card.behaviour === 'requiresAuthentication') return this.save({ ...intent, status: 'requires_action' });
    this.emit('setup_intent.succeeded', this.save(intent));
    return intent;
  }

  private paymentIntent(p: URLSearchParams): StripeObject {
    const methodId = p.get('payment_method') ?? '';
    const card = this.cards.get(methodId);
    const id = this.newId('pi');
    const intent: StripeObject = {
      id,
      object: 'payment_intent',
      amount: Number(p.get('amount')),
      currency: p.get('currency'),
      customer: p.get('customer'),
      payment_method: methodId,
      description: p.get('description'),
      metadata: this.metadata(p),
      client_secret: `${id}_secret_x`,
      last_payment_error: null,
      status: 'succeeded',
    };
    if (!card || card.behaviour === 'declines' || card.behaviour === 'declinesCharges') {
      const failed = this.save({ ...intent, status: 'requires_payment_method', last_payment_error: { message: 'Your card was declined.' } });
      this.emit('payment_intent.payment_failed', failed);
      throw new CardError('Your card was declined.', { code: 'card_declined', payment_intent: failed });
    }
    if (card.behaviour === 'requiresAuthentication') {
      if (p.get('off_session') === 'true') {
        const failed = this.save({ ...intent, status: 'requires_payment_method', last_payment_error: { message: 'Your card requires authentication.' } });
        this.emit('payment_intent.payment_failed', failed);
        throw new CardError('Your card requires authentication.', { code: 'authentication_required', payment_intent: failed });
      }
      return this.save({ ...intent, status: 'requires_action' });
    }
    this.emit('payment_intent.succeeded', this.save(intent));
    return intent;
  }

  /**
   * Creates or updates a subscription, paying its invoice with the subscription's card. A payment that needs
   * action or fails leaves a create `incomplete`; an update with `payment_behavior=pending_if_incomplete`
   * keeps its changes in `pending_update` until the invoice is paid, and any other update applies at once
   * whether paid or not (Stripe's default, allow_incomplete).
   */
  private subscription(p: URLSearchParams, id: string | undefined): StripeObject {
    const existing = id === undefined ? null : this.get(id);
    const pending = existing !== null && p.get('payment_behavior') === 'pending_if_incomplete';
    const unsupported = [...p.keys()].find((key) => !pendingUpdateParams.test(key));
    if (pending && unsupported !== undefined) throw new InvalidRequestError(`Received unknown parameter for a pending update: ${unsupported}`);
    const methodId = p.get('default_payment_method') ?? (typeof existing?.default_payment_method === 'string' ? existing.default_payment_method : '');
    const metadata = { ...(existing?.metadata as Record<string, string> | undefined), ...this.metadata(p) };
    const price = p.get('items[0][price]');
    if (existing !== null && price === null) {
      // A change of settings only (the card, metadata): no invoice.
      const updated = this.save({ ...existing, default_payment_method: methodId, metadata });
      this.emit('customer.subscription.updated', updated);
      return updated;
    }
    const subscriptionId = existing?.id ?? this.newId('sub');
    const customer = typeof existing?.customer === 'string' ? existing.customer : (p.get('customer') ?? '');
    const cents = Number([...this.objects.values()].find((o) => o.id === price)?.unit_amount ?? 0);
    const { invoice, intent } = this.invoiceFor(customer, methodId, cents);
    const paid = intent.status === 'succeeded';
    const items = { object: 'list', data: [{ id: `si_${subscriptionId}`, object: 'subscription_item', price: { id: price }, current_period_end: Math.floor(Date.now() / 1000) + 30 * 86_400 }] };
    const base = { id: subscriptionId, object: 'subscription', customer, default_payment_method: methodId, latest_invoice: invoice, pending_update: null };
    let subscription: StripeObject;
    if (existing === null) {
      subscription = this.save({ ...base, status: paid ? 'active' : 'incomplete', metadata, items });
    } else if (!paid && pending) {
      const pendingUpdate = { subscription_items: items.data, metadata: this.metadata(p), expires_at: Math.floor(Date.now() / 1000) + 23 * 3600 };
      subscription = this.save({ ...existing, ...base, pending_update: pendingUpdate });
    } else {
      subscription = this.save({ ...existing, ...base, metadata, items });
    }
    this.emit(existing === null ? 'customer.subscription.created' : 'customer.subscription.updated', subscription);
    this.emitPayment(invoice, intent);
    return subscription;
  }

  /** A subscription's invoice and its PaymentIntent, paid with the card or waiting for its holder (3-D Secure). */
  private invoiceFor(customer: string, methodId: string, cents: number): { invoice: StripeObject; intent: StripeObject } {
    const card = this.cards.get(methodId);
    const intentId = this.newId('pi');
    const status = card?.behaviour === 'succeeds' ? 'succeeded' : card?.behaviour === 'requiresAuthentication' ? 'requires_action' : 'requires_payment_method';
    const intent = this.save({
      id: intentId,
      object: 'payment_intent',
      amount: cents,
      currency: 'usd',
      customer,
      payment_method: methodId,
      metadata: {},
      client_secret: `${intentId}_secret_x`,
      last_payment_error: status === 'requires_payment_method' ? { message: 'Your card was declined.' } : null,
      status,
    });
    const invoiceId = this.newId('in');
    const invoice = this.save({
      id: invoiceId,
      object: 'invoice',
      customer,
      description: null,
      status: status === 'succeeded' ? 'paid' : 'open',
      total: cents,
      created: Math.floor(Date.now() / 1000),
      invoice_pdf: `https://pay.stripe.com/invoice/${invoiceId}/pdf`,
      hosted_invoice_url: `https://invoice.stripe.com/i/${invoiceId}`,
      last_finalization_error: null,
      lines: { object: 'list', data: [{ id: `il_${invoiceId}`, description: 'Plan, monthly', amount: cents }], has_more: false },
      confirmation_secret: { client_secret: intent.client_secret, type: 'payment_intent' },
      payments: { object: 'list', data: [{ id: `inpay_${invoiceId}`, object: 'invoice_payment', status: status === 'succeeded' ? 'paid' : 'open', payment: { type: 'payment_intent', payment_intent: intentId } }], has_more: false },
    });
    return { invoice, intent };
  }

  private emitPayment(invoice: StripeObject, intent: StripeObject): void {
    if (intent.status === 'succeeded') {
      this.emit('payment_intent.succeeded', intent);
      this.emit('invoice.paid', invoice);
    } else if (intent.status === 'requires_action') {
      this.emit('invoice.finalized', invoice);
      this.emit('payment_intent.requires_action', intent);
      this.emit('invoice.payment_action_required', invoice);
    } else {
      this.emit('invoice.finalized', invoice);
      this.emit('payment_intent.payment_failed', intent);
      this.emit('invoice.payment_failed', invoice);
    }
  }

  /**
   * What Stripe does once the card holder answers 3-D Secure for a subscription's invoice (Stripe.js confirms
   * its PaymentIntent with the client secret): approved, the PaymentIntent succeeds, the invoice is paid and
   * the subscription becomes active with its pending update applied; refused, the payment fails and nothing
   * moves. Returns false for an unknown secret or one no longer waiting.
   */
  authenticate(clientSecret: string, approve: boolean): boolean {
    const setup = [...this.objects.values()].find((o) => o.object === 'setup_intent' && o.client_secret === clientSecret);
    if (setup) return this.authenticateSetup(setup, approve);
    const intent = [...this.objects.values()].find((o) => o.object === 'payment_intent' && o.client_secret === clientSecret);
    if (intent?.status !== 'requires_action') return false;
    const invoice = [...this.objects.values()].find((o) => o.object === 'invoice' && (o.confirmation_secret as { client_secret: string } | undefined)?.client_secret === clientSecret);
    if (!approve) {
      const failed = this.save({ ...intent, status: 'requires_payment_method', last_payment_error: { message: 'We are unable to authenticate your payment method.', code: 'payment_intent_authentication_failure' } });
      this.emit('payment_intent.payment_failed', failed);
      if (invoice) this.emit('invoice.payment_failed', invoice);
      return true;
    }
    this.emit('payment_intent.succeeded', this.save({ ...intent, status: 'succeeded' }));
    if (!invoice) return true;
    const paid = this.save({ ...invoice, status: 'paid' });
    this.emit('invoice.paid', paid);
    const subscription = [...this.objects.values()].find((o) => o.object === 'subscription' && (o.latest_invoice as { id?: string } | null)?.id === invoice.id);
    if (!subscription) return true;
    const update = subscription.pending_update as { subscription_items: unknown[]; metadata: Record<string, string> } | null;
    const applied = this.save({
      ...subscription,
      status: 'active',
      latest_invoice: paid,
      pending_update: null,
      ...(update === null
        ? {}
        : { items: { object: 'list', data: update.subscription_items }, metadata: { ...(subscription.metadata as Record<string, string>), ...update.metadata } }),
    });
    this.emit('customer.subscription.updated', applied);
    return true;
  }

  /** A SetupIntent's card holder answering 3-D Secure: approved, the card is saved; refused, the set-up fails. */
  private authenticateSetup(setup: StripeObject, approve: boolean): boolean {
    if (setup.status !== 'requires_action') return false;
    if (approve) {
      this.emit('setup_intent.succeeded', this.save({ ...setup, status: 'succeeded' }));
    } else {
      const failed = this.save({ ...setup, status: 'requires_payment_method', last_setup_error: { message: 'We are unable to authenticate your payment method.' } });
      this.emit('setup_intent.setup_failed', failed);
    }
    return true;
  }

  private metadata(p: URLSearchParams): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [key, value] of p.entries()) {
      const match = /^metadata\[(.+)\]$/.exec(key);
      if (match?.[1] !== undefined) out[match[1]] = value;
    }
    return out;
  }

  private emit(type: string, object: Record<string, unknown>): void {
    this.events.push({
      id: this.newId('evt'),
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: Math.floor(Date.now() / 1000),
      type,
      data: { object: structuredClone(object) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
    } as unknown as Stripe.Event);
  }

  private save(object: StripeObject): StripeObject {
    this.objects.set(object.id, object);
    return object;
  }

  private get(id: string): StripeObject {
    const object = this.objects.get(id);
    if (!object) throw new Error(`No such object: '${id}'`);
    return object;
  }

  private newId(prefix: string): string {
    this.serial += 1;
    return `${prefix}_peer${String(this.serial).padStart(8, '0')}`;
  }
}
