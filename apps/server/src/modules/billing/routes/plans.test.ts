import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { CatalogPlan } from '@parley/shared';
import { accounts } from '../../../platform/db/schema/index.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { useRouteHarness } from '../../../test/routeHarness.js';
import { deliverSandboxEvents } from '../payments/sandbox/delivery.js';
import { seedPlans } from '../plans.js';
import { addSandboxCard } from '../test/sandboxCards.js';
import { NO_PAYMENT_METHOD_MESSAGE } from '../topup.js';

describe.each(testDatabaseKinds)('plans, plan changes and invoices with the sandbox on %s', (kind) => {
  const { h, fixtures, tokens, ownAccount } = useRouteHarness(kind, { seed: seedPlans });

  it('lists the plans on offer cheapest first, with support level, included segments and Contact Us for the largest', async () => {
    const { account, token } = await ownAccount();
    const res = await h.call('GET', `/v1/accounts/${account.id}/plans`, token);
    expect(res.statusCode, res.body).toBe(200);
    const plans = res.json<{ data: CatalogPlan[]; pagination: { limit: number } }>();
    expect(plans.pagination.limit).toBe(20);
    // The test fixtures' own plan is listed too; the catalog's plans keep their order around it.
    const catalog = plans.data.filter((p) => ['starter', 'growth', 'scale'].includes(p.id));
    expect(plans.data.map((p) => Number(p.price))).toEqual(plans.data.map((p) => Number(p.price)).sort((a, b) => a - b));
    expect(catalog.map((p) => [p.id, p.price, p.supportLevel, p.contactUs])).toEqual([
      ['starter', '29.0000', 'Standard', false],
      ['growth', '99.0000', 'Premium', false],
      ['scale', '299.0000', 'Premium', true],
    ]);
    // 29 / 0.0120 a US segment = 2,416 whole segments; 29 / 0.0300 an MMS = 966.
    expect(catalog[0]?.includedSegments).toEqual({ country: 'US', sms: 2416, mms: 966 });
  });

  it('changes plan after a card is on file; the account moves when the provider confirms, with an invoice and its PDF', async () => {
    const { account, token } = await ownAccount();
    const change = { id: 'starter', segmentUnderstanding: new Date().toISOString() };
    const noCard = await h.call('PUT', `/v1/accounts/${account.id}/plan`, token, change);
    expect(noCard.statusCode).toBe(402);
    expect(noCard.json()).toEqual({ error: { code: 'bad_request', message: NO_PAYMENT_METHOD_MESSAGE } });
    expect((await h.call('PUT', `/v1/accounts/${account.id}/plan`, token, { id: 'starter' })).statusCode).toBe(400);
    expect((await h.call('PUT', `/v1/accounts/${account.id}/plan`, token, { ...change, id: 'trial' })).statusCode).toBe(404);

    await addSandboxCard(h, account.id, token);
    const res = await h.call('PUT', `/v1/accounts/${account.id}/plan`, token, change);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ data: { status: 'processing', action: null, error: null, message: 'Your request is being processed.' } });
    const planOf = async (): Promise<string | undefined> => (await h.database.db.select({ planId: accounts.planId }).from(accounts).where(eq(accounts.id, account.id)))[0]?.planId;
    const before = await planOf();
    expect(before).not.toBe('starter');
    await deliverSandboxEvents(h.database.db);
    expect(await planOf()).toBe('starter');
    expect((await h.call('PUT', `/v1/accounts/${account.id}/plan`, token, change)).statusCode).toBe(409);

    const invoices = await h.call('GET', `/v1/accounts/${account.id}/invoices`, token);
    const listed = invoices.json<{ data: { id: string; total: string; lines: unknown[]; invoicePdf: string }[]; pagination: { limit: number } }>();
    expect(listed.pagination.limit).toBe(50);
    const [invoice] = listed.data;
    expect(invoice).toMatchObject({ total: '29.0000', invoicePdf: `/v1/accounts/${account.id}/invoices/${invoice?.id ?? ''}/pdf` });
    const pdf = await h.call('GET', invoice?.invoicePdf ?? '', token);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 8).toString('latin1')).toBe('%PDF-1.4');
    expect(pdf.rawPayload.toString('latin1')).toContain('(Total    USD 29.0000)');
    expect(pdf.rawPayload.toString('latin1').trimEnd().endsWith('%%EOF')).toBe(true);
  });

  it('changes plan with a card that asks authentication: nothing moves until the holder approves, then the plan and its invoice', async () => {
    const { account, token } = await ownAccount();
    await addSandboxCard(h, account.id, token, '4000 0027 6000 3184');
    const res = await h.call('PUT', `/v1/accounts/${account.id}/plan`, token, { id: 'starter', segmentUnderstanding: new Date().toISOString() });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<{ data: { status: string; action: { client_secret: string } | null } }>().data;
    expect(answer.status).toBe('requiresAction');
    const planOf = async (): Promise<string | undefined> => (await h.database.db.select({ planId: accounts.planId }).from(accounts).where(eq(accounts.id, account.id)))[0]?.planId;
    const invoicesOf = async (): Promise<{ total: string; description: string }[]> =>
      (await h.call('GET', `/v1/accounts/${account.id}/invoices`, token)).json<{ data: { total: string; description: string }[] }>().data;
    await deliverSandboxEvents(h.database.db);
    expect(await planOf()).not.toBe('starter');
    expect(await invoicesOf()).toEqual([]);
    const approved = await h.call('POST', '/v1/billing/sandbox/authenticate', token, { clientSecret: answer.action?.client_secret ?? '', approve: true });
    expect(approved.statusCode).toBe(204);
    await deliverSandboxEvents(h.database.db);
    expect(await planOf()).toBe('starter');
    expect(await invoicesOf()).toEqual([expect.objectContaining({ total: '29.0000', description: 'Starter plan, monthly' })]);
  });

  it("answers the account's plan and, once a subscription exists, its next bill date; administrators only", async () => {
    const { account, token } = await ownAccount();
    const none = await h.call('GET', `/v1/accounts/${account.id}/plan`, token);
    expect(none.statusCode, none.body).toBe(200);
    const first = none.json<{ data: { plan: { id: string; isTrial: boolean }; subscription: unknown } }>().data;
    expect(first.subscription).toBeNull();
    expect(first.plan.id).not.toBe('starter');
    await addSandboxCard(h, account.id, token);
    const changed = await h.call('PUT', `/v1/accounts/${account.id}/plan`, token, { id: 'starter', segmentUnderstanding: new Date().toISOString() });
    expect(changed.statusCode, changed.body).toBe(200);
    await deliverSandboxEvents(h.database.db);
    const after = (await h.call('GET', `/v1/accounts/${account.id}/plan`, token)).json<{
      data: { plan: { id: string; name: string; price: string; isTrial: boolean }; subscription: { status: string; planId: string; activeUntil: string } };
    }>().data;
    expect(after.plan).toEqual({ id: 'starter', name: 'Starter', price: '29.0000', isTrial: false });
    expect(after.subscription).toMatchObject({ status: 'active', planId: 'starter' });
    // The sandbox bills monthly: the next bill is about a month out.
    const days = (Date.parse(after.subscription.activeUntil) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(27);
    expect(days).toBeLessThan(32);

    for (const role of ['CampaignManager', 'Sender', 'ReadOnly'] as const) {
      expect((await h.call('GET', `/v1/accounts/${fixtures.accountId}/plan`, tokens[role])).statusCode).toBe(403);
    }
    expect((await h.call('GET', `/v1/accounts/${fixtures.accountId}/plan`, tokens.Administrator)).statusCode).toBe(200);
    // Another account's plan is not found.
    expect((await h.call('GET', `/v1/accounts/${account.id}/plan`, tokens.Administrator)).statusCode).toBe(404);
  });

  it('shows the card on file or none (No Payment Setup), and refuses a card the sandbox does not know', async () => {
    const { account, token } = await ownAccount();
    expect((await h.call('GET', `/v1/accounts/${account.id}/paymentsource`, token)).json()).toEqual({ data: { paymentSource: null, provider: 'sandbox' } });
    const unknown = await h.call('POST', '/v1/billing/sandbox/cards', token, { number: '4111 1111 1111 1111', expMonth: 1, expYear: 2030, cvc: '123' });
    expect(unknown.statusCode).toBe(400);
    const declined = await h.call('POST', '/v1/billing/sandbox/cards', token, { number: '4000 0000 0000 0002', expMonth: 1, expYear: 2030, cvc: '123' });
    const refused = await h.call('POST', `/v1/accounts/${account.id}/paymentsource`, token, { tokenId: declined.json<{ data: { tokenId: string } }>().data.tokenId });
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toEqual({ error: { code: 'bad_request', message: 'Your card was declined.' } });
    await addSandboxCard(h, account.id, token, '5555 5555 5555 4444');
    expect((await h.call('GET', `/v1/accounts/${account.id}/paymentsource`, token)).json()).toEqual({
      data: { paymentSource: { brand: 'mastercard', last4: '4444', expiry: { month: 12, year: 2031 } }, provider: 'sandbox' },
    });
  });
});
