import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type Stripe from 'stripe';
import type { TopupResult } from '@parley/shared';
import { accounts, billingEvents } from '../../../../platform/db/schema/index.js';
import { ledgerAndBalance } from '../../../../test/accounts.js';
import { testDatabaseKinds } from '../../../../test/databases.js';
import { useRouteHarness } from '../../../../test/routeHarness.js';
import { sendingAccount } from '../../../../test/sendingFixtures.js';
import { seedPlans } from '../../plans.js';
import { StripePeer } from './test/stripePeer.js';

describe.each(testDatabaseKinds)('the Stripe provider against a local Stripe on %s', (kind) => {
  const peer = new StripePeer();
  const env: Record<string, string> = {};
  beforeAll(async () => {
    await peer.start();
    Object.assign(env, {
      PAYMENTS_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: peer.secretKey,
      STRIPE_WEBHOOK_SECRET: peer.webhookSecret,
      STRIPE_PUBLISHABLE_KEY: peer.publishableKey,
      STRIPE_API_HOST: '127.0.0.1',
      STRIPE_API_PORT: String(peer.port),
      STRIPE_API_PROTOCOL: 'http',
    });
  });
  afterAll(async () => {
    await peer.stop();
  });
  const { h } = useRouteHarness(kind, { env, seed: seedPlans });

  const deliver = (event: Stripe.Event, options: Parameters<StripePeer['signed']>[1] = {}) => {
    const { payload, signature } = peer.signed(event, options);
    return h.app.inject({ method: 'POST', url: '/v1/billing/stripe/webhook', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, payload });
  };
  const deliverAll = async (events: readonly Stripe.Event[]) => {
    for (const event of events) expect((await deliver(event)).statusCode).toBe(200);
  };

  const withCard = async (token = 'pm_card_visa', balance = '0') => {
    const account = await sendingAccount(h.database.db, { balance });
    const auth = h.tokenFor(account.adminId);
    const before = peer.events.length;
    const saved = await h.call('POST', `/v1/accounts/${account.accountId}/paymentsource`, auth, { tokenId: token });
    await deliverAll(peer.events.slice(before));
    return { ...account, auth, saved };
  };

  it('tells the web app to use Stripe, with the publishable key and neither secret (GET /v1/config)', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/v1/config' });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ payments: unknown }>().payments).toEqual({ provider: 'stripe', stripePublishableKey: peer.publishableKey });
    expect(res.body).not.toContain(peer.secretKey);
    expect(res.body).not.toContain(peer.webhookSecret);
    // Stripe.js may run in this deployment's pages: its script, frames and API (docs/security.md).
    const csp = res.headers['content-security-policy'];
    expect(csp).toContain("script-src 'self' https://js.stripe.com https://*.js.stripe.com;");
    expect(csp).toContain('frame-src https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com');
    expect(csp).toMatch(/connect-src [^;]* https:\/\/api\.stripe\.com/);
  });

  it('saves a card through a SetupIntent, shown once its webhook arrives', async () => {
    const account = await sendingAccount(h.database.db, { balance: '0' });
    const auth = h.tokenFor(account.adminId);
    const before = peer.events.length;
    const empty = await h.call('GET', `/v1/accounts/${account.accountId}/paymentsource`, auth);
    expect(empty.json()).toEqual({ data: { paymentSource: null, provider: 'stripe' } });
    const saved = await h.call('POST', `/v1/accounts/${account.accountId}/paymentsource`, auth, { tokenId: 'pm_card_visa' });
    expect(saved.json()).toEqual({ data: { status: 'processing', clientSecret: null, error: null } });
    expect((await h.call('GET', `/v1/accounts/${account.accountId}/paymentsource`, auth)).json<{ data: { paymentSource: unknown } }>().data.paymentSource).toBeNull();
    await deliverAll(peer.events.slice(before));
    const card = await h.call('GET', `/v1/accounts/${account.accountId}/paymentsource`, auth);
    expect(card.json()).toEqual({ data: { paymentSource: { brand: 'visa', last4: '4242', expiry: { month: 12, year: 2031 } }, provider: 'stripe' } });
    // Every create carried our idempotency key.
    const creates = peer.requests.filter((r) => r.method === 'POST');
    expect(creates.length).toBeGreaterThan(0);
    expect(creates.every((r) => r.idempotencyKey !== null && /^(customer|card|payment|plan|price):/.test(r.idempotencyKey))).toBe(true);
  });

  it('refuses a declined card, and asks authentication of one that needs it', async () => {
    const declined = await withCard('pm_card_chargeDeclined');
    expect(declined.saved.statusCode).toBe(402);
    expect(declined.saved.json()).toEqual({ error: { code: 'bad_request', message: 'Your card was declined.' } });
    const authenticating = await withCard('pm_card_authenticationRequired');
    expect(authenticating.saved.json()).toEqual({ data: { status: 'requiresAction', clientSecret: expect.stringMatching(/_secret_/) as unknown, error: null } });
  });

  it('tops up with a PaymentIntent: processing, then credited once by its webhook, delivered three times and out of order', async () => {
    const account = await withCard();
    const before = peer.events.length;
    const res = await h.call('POST', `/v1/accounts/${account.accountId}/topup`, account.auth, { amount: 30 });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<TopupResult>().data;
    expect(answer).toMatchObject({ balance: '0.0000', payment: { status: 'processing', amount: '30.0000' } });
    const created = peer.requests.filter((r) => r.path === '/v1/payment_intents').at(-1);
    expect(created?.params.get('amount')).toBe('3000');
    expect(created?.idempotencyKey).toBe(`payment:${answer.payment.id}`);
    expect(created?.params.get('metadata[paymentId]')).toBe(answer.payment.id);

    const [succeeded] = peer.events.slice(before);
    if (succeeded === undefined) throw new Error('no event');
    // A processing event sent late must not undo the success; the success itself comes three times.
    const processing = { ...succeeded, id: 'evt_late_processing', type: 'payment_intent.processing' } as Stripe.Event;
    await deliverAll([succeeded, processing, succeeded, succeeded]);
    expect(await ledgerAndBalance(h.database.db, account.accountId)).toEqual({ ledger: '30.0000', balance: '30.0000' });
    const again = await deliver(succeeded);
    expect(again.json()).toEqual({ received: true, duplicate: true });
    const stored = await h.database.db.select().from(billingEvents).where(eq(billingEvents.eventId, succeeded.id));
    expect(stored).toHaveLength(1);
  });

  it('refuses unsigned, tampered, wrongly signed and replayed (old) webhooks, applying none', async () => {
    const account = await withCard();
    const before = peer.events.length;
    await h.call('POST', `/v1/accounts/${account.accountId}/topup`, account.auth, { amount: 10 });
    const [event] = peer.events.slice(before);
    if (event === undefined) throw new Error('no event');
    const { payload, signature } = peer.signed(event);
    const post = (body: string, headers: Record<string, string>) =>
      h.app.inject({ method: 'POST', url: '/v1/billing/stripe/webhook', headers: { 'content-type': 'application/json', ...headers }, payload: body });

    expect((await post(payload, {})).statusCode).toBe(400);
    const tampered = payload.replace('"amount": 1000', '"amount": 99900');
    expect(tampered).not.toBe(payload);
    expect((await post(tampered, { 'stripe-signature': signature })).statusCode).toBe(400);
    expect((await deliver(event, { secret: 'whsec_someoneelse' })).statusCode).toBe(400);
    const old = await deliver(event, { timestamp: Math.floor(Date.now() / 1000) - 600 });
    expect(old.statusCode).toBe(400);
    expect(old.json<{ error: { message: string } }>().error.message).toMatch(/tolerance/i);
    expect(await ledgerAndBalance(h.database.db, account.accountId)).toEqual({ ledger: '0.0000', balance: '0.0000' });
    expect((await post(payload, { 'stripe-signature': signature })).statusCode).toBe(200);
    expect(await ledgerAndBalance(h.database.db, account.accountId)).toEqual({ ledger: '10.0000', balance: '10.0000' });
  });

  it('fails a top-up the card declines, crediting nothing', async () => {
    const account = await withCard('pm_card_chargeCustomerFail');
    const before = peer.events.length;
    const res = await h.call('POST', `/v1/accounts/${account.accountId}/topup`, account.auth, { amount: 10 });
    expect(res.json<TopupResult>().data.payment).toMatchObject({ status: 'failed', error: 'Your card was declined.' });
    await deliverAll(peer.events.slice(before));
    expect(await ledgerAndBalance(h.database.db, account.accountId)).toEqual({ ledger: '0.0000', balance: '0.0000' });
  });

  it('changes plan with a Subscription: the account moves when its webhook arrives, with the invoice and Stripe PDF', async () => {
    const account = await withCard();
    const before = peer.events.length;
    const changed = await h.call('PUT', `/v1/accounts/${account.accountId}/plan`, account.auth, { id: 'growth', segmentUnderstanding: new Date().toISOString() });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ data: { status: 'processing', action: null } });
    const [row] = await h.database.db.select({ planId: accounts.planId }).from(accounts).where(eq(accounts.id, account.accountId));
    expect(row?.planId).not.toBe('growth');
    await deliverAll(peer.events.slice(before));
    const [moved] = await h.database.db.select({ planId: accounts.planId }).from(accounts).where(eq(accounts.id, account.accountId));
    expect(moved?.planId).toBe('growth');
    const invoices = await h.call('GET', `/v1/accounts/${account.accountId}/invoices`, account.auth);
    const [invoice] = invoices.json<{ data: { id: string; total: string; invoicePdf: string }[] }>().data;
    expect(invoice).toMatchObject({ total: '99.0000', invoicePdf: expect.stringMatching(/^https:\/\/pay\.stripe\.com\//) as unknown });
    const pdf = await h.call('GET', `/v1/accounts/${account.accountId}/invoices/${invoice?.id ?? ''}/pdf`, account.auth);
    expect(pdf.statusCode).toBe(302);
    expect(pdf.headers.location).toBe(invoice?.invoicePdf);
  });
  it('changes plan with a card that asks authentication: the client gets the secret, the plan moves only once the paid invoice is signalled', async () => {
    const account = await withCard('pm_card_authenticationRequired');
    const setup = account.saved.json<{ data: { status: string; clientSecret: string } }>().data;
    expect(setup.status).toBe('requiresAction');
    let before = peer.events.length;
    expect(peer.authenticate(setup.clientSecret, true)).toBe(true);
    await deliverAll(peer.events.slice(before));
    const planOf = async (): Promise<string | undefined> =>
      (await h.database.db.select({ planId: accounts.planId }).from(accounts).where(eq(accounts.id, account.accountId)))[0]?.planId;
    const change = async (id: string) => {
      before = peer.events.length;
      const res = await h.call('PUT', `/v1/accounts/${account.accountId}/plan`, account.auth, { id, segmentUnderstanding: new Date().toISOString() });
      expect(res.statusCode, res.body).toBe(200);
      const answer = res.json<{ data: { status: string; action: { client_secret: string } | null } }>().data;
      // Stripe's events for the payment waiting (subscription incomplete or its update pending) move nothing.
      await deliverAll(peer.events.slice(before));
      return answer;
    };
    const approve = async (clientSecret: string, yes = true) => {
      before = peer.events.length;
      expect(peer.authenticate(clientSecret, yes)).toBe(true);
      await deliverAll(peer.events.slice(before));
    };
    const original = await planOf();

    // A new subscription: incomplete until its first invoice is paid.
    const created = await change('starter');
    expect(created).toMatchObject({ status: 'requiresAction', action: { client_secret: expect.stringMatching(/^pi_.+_secret_/) as unknown } });
    expect(await planOf()).toBe(original);
    await approve(created.action?.client_secret ?? '');
    expect(await planOf()).toBe('starter');

    // A change: the update waits in pending_update, the account stays on Starter until the invoice is paid.
    const upgraded = await change('growth');
    expect(upgraded.status).toBe('requiresAction');
    const update = peer.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/v1/subscriptions/')).at(-1);
    expect(update?.params.get('payment_behavior')).toBe('pending_if_incomplete');
    expect(update?.params.get('proration_behavior')).toBe('always_invoice');
    expect(await planOf()).toBe('starter');
    await approve(upgraded.action?.client_secret ?? '');
    expect(await planOf()).toBe('growth');

    // Authentication refused: the plan stays, and the open invoice is not marked paid.
    const refused = await change('scale');
    expect(refused.status).toBe('requiresAction');
    await approve(refused.action?.client_secret ?? '', false);
    expect(await planOf()).toBe('growth');
    const invoices = (await h.call('GET', `/v1/accounts/${account.accountId}/invoices`, account.auth)).json<{ data: { status: string }[] }>().data;
    expect(invoices.map((i) => i.status)).toEqual(['open', 'paid', 'paid']);
  });

  it('refuses a plan change the new card declines, the account left on its plan', async () => {
    const account = await withCard();
    const planOf = async (): Promise<string | undefined> =>
      (await h.database.db.select({ planId: accounts.planId }).from(accounts).where(eq(accounts.id, account.accountId)))[0]?.planId;
    let before = peer.events.length;
    expect((await h.call('PUT', `/v1/accounts/${account.accountId}/plan`, account.auth, { id: 'starter', segmentUnderstanding: new Date().toISOString() })).statusCode).toBe(200);
    await deliverAll(peer.events.slice(before));
    expect(await planOf()).toBe('starter');
    before = peer.events.length;
    expect((await h.call('POST', `/v1/accounts/${account.accountId}/paymentsource`, account.auth, { tokenId: 'pm_card_chargeCustomerFail' })).statusCode).toBe(200);
    await deliverAll(peer.events.slice(before));
    before = peer.events.length;
    const res = await h.call('PUT', `/v1/accounts/${account.accountId}/plan`, account.auth, { id: 'growth', segmentUnderstanding: new Date().toISOString() });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({ error: { code: 'bad_request', message: 'Your card was declined.' } });
    await deliverAll(peer.events.slice(before));
    expect(await planOf()).toBe('starter');
  });
});
