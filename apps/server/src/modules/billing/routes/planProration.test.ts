import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Invoice } from '@parley/shared';
import { testDatabaseKinds } from '../../../test/databases.js';
import { useRouteHarness } from '../../../test/routeHarness.js';
import { deliverSandboxEvents } from '../payments/sandbox/delivery.js';
import { seedPlans } from '../plans.js';
import { addSandboxCard } from '../test/sandboxCards.js';

// January 2027 has 31 days; the subscription starts on its first second, so its period ends on 1 February.
const PERIOD_START = '2027-01-01T00:00:00.000Z';
const PERIOD_END = '2027-02-01T00:00:00.000Z';

describe.each(testDatabaseKinds)('sandbox plan changes prorated as Stripe does on %s', (kind) => {
  const { h, ownAccount } = useRouteHarness(kind, { seed: seedPlans });
  afterEach(() => {
    vi.useRealTimers();
  });

  const at = (iso: string): void => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(iso));
  };

  /** An account on Starter from the period's first second, with the given card. */
  const onStarter = async (card?: string) => {
    at(PERIOD_START);
    const { account, token } = await ownAccount();
    await addSandboxCard(h, account.id, token, card);
    const started = await changeTo(account.id, token, 'starter');
    // A card that asks authentication (4000 0027 6000 3184) is approved for the first month, as its holder would.
    if (started.action) await approve(token, started.action.client_secret);
    return { accountId: account.id, token };
  };

  const approve = async (token: string, clientSecret: string): Promise<void> => {
    const approved = await h.call('POST', '/v1/billing/sandbox/authenticate', token, { clientSecret, approve: true });
    expect(approved.statusCode).toBe(204);
    await deliverSandboxEvents(h.database.db);
  };

  const changeTo = async (accountId: string, token: string, planId: string) => {
    const res = await h.call('PUT', `/v1/accounts/${accountId}/plan`, token, { id: planId, segmentUnderstanding: new Date().toISOString() });
    expect(res.statusCode, res.body).toBe(200);
    await deliverSandboxEvents(h.database.db);
    return res.json<{ data: { status: string; action: { client_secret: string } | null } }>().data;
  };

  const latestInvoice = async (accountId: string, token: string): Promise<Invoice | undefined> =>
    (await h.call('GET', `/v1/accounts/${accountId}/invoices`, token)).json<{ data: Invoice[] }>().data[0];

  const planOf = async (accountId: string, token: string) =>
    (await h.call('GET', `/v1/accounts/${accountId}/plan`, token)).json<{ data: { plan: { id: string }; subscription: { activeUntil: string } | null } }>().data;

  const linesOf = (invoice: Invoice | undefined) => invoice?.lines.map((line) => [line.description, line.amount]);

  it('upgrading half-way through the month charges half the difference to the cent, in one invoice, the period kept', async () => {
    const { accountId, token } = await onStarter();
    expect(await latestInvoice(accountId, token)).toMatchObject({ total: '29.0000', lines: [expect.objectContaining({ amount: '29.0000' })] });
    at('2027-01-16T12:00:00.000Z');
    expect((await changeTo(accountId, token, 'growth')).status).toBe('processing');
    const invoice = await latestInvoice(accountId, token);
    expect(linesOf(invoice)).toEqual([
      ['Unused time on Starter after 16 Jan 2027', '-14.5000'],
      ['Remaining time on Growth after 16 Jan 2027', '49.5000'],
    ]);
    expect(invoice).toMatchObject({ total: '35.0000', status: 'paid', description: 'Growth plan from 16 Jan 2027, prorated' });
    expect(await planOf(accountId, token)).toMatchObject({ plan: { id: 'growth' }, subscription: { activeUntil: PERIOD_END } });

    const pdf = (await h.call('GET', invoice?.invoicePdf ?? '', token)).rawPayload.toString('latin1');
    expect(pdf).toContain('(Unused time on Starter after 16 Jan 2027    USD -14.5000)');
    expect(pdf).toContain('(Remaining time on Growth after 16 Jan 2027    USD 49.5000)');
    expect(pdf).toContain('(Total    USD 35.0000)');
  });

  it('a change on the first second charges the full difference', async () => {
    const { accountId, token } = await onStarter();
    await changeTo(accountId, token, 'growth');
    const invoice = await latestInvoice(accountId, token);
    expect(linesOf(invoice)).toEqual([
      ['Unused time on Starter after 1 Jan 2027', '-29.0000'],
      ['Remaining time on Growth after 1 Jan 2027', '99.0000'],
    ]);
    expect(invoice?.total).toBe('70.0000');
  });

  it('a downgrade gives a credit, kept as credit balance and applied to the next invoice first', async () => {
    const { accountId, token } = await onStarter();
    at('2027-01-02T00:00:00.000Z');
    await changeTo(accountId, token, 'growth');
    // 8 of 31 days left: 99 x 8/31 = 25.548 and 29 x 8/31 = 7.484.
    at('2027-01-24T00:00:00.000Z');
    expect((await changeTo(accountId, token, 'starter')).status).toBe('processing');
    const credit = await latestInvoice(accountId, token);
    expect(linesOf(credit)).toEqual([
      ['Unused time on Growth after 24 Jan 2027', '-25.5500'],
      ['Remaining time on Starter after 24 Jan 2027', '7.4800'],
    ]);
    expect(credit?.total).toBe('-18.0700');
    expect(await planOf(accountId, token)).toMatchObject({ plan: { id: 'starter' }, subscription: { activeUntil: PERIOD_END } });
    // 4 days left: 29 x 4/31 = 3.742 and 299 x 4/31 = 38.581; the 18.07 of credit pays first.
    at('2027-01-28T00:00:00.000Z');
    await changeTo(accountId, token, 'scale');
    const next = await latestInvoice(accountId, token);
    expect(linesOf(next)).toEqual([
      ['Unused time on Starter after 28 Jan 2027', '-3.7400'],
      ['Remaining time on Scale after 28 Jan 2027', '38.5800'],
      ['Applied balance (credit of USD 18.0700)', '-18.0700'],
    ]);
    expect(next?.total).toBe('16.7700');
  });

  it('credit spent by a change waiting for authentication comes back when refused, and is spent once', async () => {
    const { accountId, token } = await onStarter();
    at('2027-01-02T00:00:00.000Z');
    await changeTo(accountId, token, 'growth');
    at('2027-01-24T00:00:00.000Z');
    await changeTo(accountId, token, 'starter');
    expect((await latestInvoice(accountId, token))?.total).toBe('-18.0700');
    await addSandboxCard(h, accountId, token, '4000 0027 6000 3184');
    at('2027-01-28T00:00:00.000Z');

    // Refused: the 18.07 it took while waiting goes back to the balance.
    const refused = await changeTo(accountId, token, 'scale');
    expect(refused.status).toBe('requiresAction');
    const answered = await h.call('POST', '/v1/billing/sandbox/authenticate', token, { clientSecret: refused.action?.client_secret ?? '', approve: false });
    expect(answered.statusCode).toBe(204);
    await deliverSandboxEvents(h.database.db);

    // Held again (a minute on: another request, not a repeat of the refused one): it spends the credit at
    // once, so a change made meanwhile finds none to apply.
    at('2027-01-28T00:01:00.000Z');
    const held = await changeTo(accountId, token, 'scale');
    expect(held.status).toBe('requiresAction');
    await addSandboxCard(h, accountId, token);
    await changeTo(accountId, token, 'growth');
    const meanwhile = await latestInvoice(accountId, token);
    expect(linesOf(meanwhile)?.map(([description]) => description)).toEqual([
      'Unused time on Starter after 28 Jan 2027',
      'Remaining time on Growth after 28 Jan 2027',
    ]);
    expect(held.action?.client_secret).not.toBe(refused.action?.client_secret);
    await approve(token, held.action?.client_secret ?? '');
    expect(linesOf(await latestInvoice(accountId, token))?.at(-1)).toEqual(['Applied balance (credit of USD 18.0700)', '-18.0700']);
  });

  it('a prorated change with a card that asks authentication moves nothing until the holder approves', async () => {
    const { accountId, token } = await onStarter('4000 0027 6000 3184');
    at('2027-01-16T12:00:00.000Z');
    const answer = await changeTo(accountId, token, 'growth');
    expect(answer.status).toBe('requiresAction');
    expect((await planOf(accountId, token)).plan.id).toBe('starter');
    expect((await latestInvoice(accountId, token))?.total).toBe('29.0000');
    await approve(token, answer.action?.client_secret ?? '');
    expect((await planOf(accountId, token)).plan.id).toBe('growth');
    // Refused: the plan, its period and the subscription's status stay; no invoice.
    at('2027-01-20T00:00:00.000Z');
    const refused = await changeTo(accountId, token, 'scale');
    const answered = await h.call('POST', '/v1/billing/sandbox/authenticate', token, { clientSecret: refused.action?.client_secret ?? '', approve: false });
    expect(answered.statusCode).toBe(204);
    await deliverSandboxEvents(h.database.db);
    expect(await planOf(accountId, token)).toMatchObject({ plan: { id: 'growth' }, subscription: { status: 'active', planId: 'growth', activeUntil: PERIOD_END } });
    expect((await latestInvoice(accountId, token))?.total).toBe('35.0000');
    expect(await latestInvoice(accountId, token)).toMatchObject({ total: '35.0000', lines: [expect.objectContaining({ amount: '-14.5000' }), expect.objectContaining({ amount: '49.5000' })] });
  });
});
