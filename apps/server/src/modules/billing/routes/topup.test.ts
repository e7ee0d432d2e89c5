import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { roles, TOPUP_STEP_MESSAGE, type TopupResult } from '@parley/shared';
import { sendingAccount } from '../../../test/sendingFixtures.js';
import { accountMembers, accountTransactions, sandboxEvents } from '../../../platform/db/schema/index.js';
import { createUser } from '../../../test/factories.js';
import { ledgerAndBalance } from '../../../test/accounts.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { useRouteHarness } from '../../../test/routeHarness.js';
import { UNVERIFIED_EMAIL_MESSAGE } from '../../../platform/policies/verifiedEmail.js';
import { deliverSandboxEvents, redeliverSandboxEvents } from '../payments/sandbox/delivery.js';
import { addSandboxCard } from '../test/sandboxCards.js';
import { IDEMPOTENCY_KEY_REUSED_MESSAGE, NO_PAYMENT_METHOD_MESSAGE } from '../topup.js';

describe.each(testDatabaseKinds)('top-up through the sandbox provider on %s', (kind) => {
  const { h, fixtures, tokens } = useRouteHarness(kind);

  const topup = async (acc: string, token: string, body: object, headers: Record<string, string> = {}, method: 'POST' | 'PUT' = 'POST') =>
    h.app.inject({ method, url: `/v1/accounts/${acc}/topup`, headers: { authorization: `Bearer ${token}`, ...headers }, payload: body });

  const withCard = async (balance = '5', card?: string) => {
    const account = await sendingAccount(h.database.db, { balance });
    const token = h.tokenFor(account.adminId);
    await addSandboxCard(h, account.accountId, token, card);
    return { ...account, token };
  };

  it('answers processing, and the balance moves once the provider confirms: once, however often and in whatever order its events come', async () => {
    const account = await withCard('5');
    const first = await topup(account.accountId, account.token, { amount: 10 });
    expect(first.statusCode, first.body).toBe(200);
    const answer = first.json<TopupResult>().data;
    expect(answer).toMatchObject({ balance: '5.0000', duplicate: false, clientSecret: null, payment: { status: 'processing', amount: '10.0000', purpose: 'topup' } });
    expect(await ledgerAndBalance(h.database.db, account.accountId)).toEqual({ ledger: '5.0000', balance: '5.0000' });

    const pending = await h.database.db.select({ id: sandboxEvents.id, type: sandboxEvents.type }).from(sandboxEvents);
    await deliverSandboxEvents(h.database.db);
    expect(await ledgerAndBalance(h.database.db, account.accountId)).toEqual({ ledger: '15.0000', balance: '15.0000' });
    // The same events again, three times, newest first: nothing more.
    const ids = pending.map((e) => e.id).reverse();
    for (let i = 0; i < 3; i++) {
      const again = await redeliverSandboxEvents(h.database.db, ids);
      expect(again.every((r) => !r.applied)).toBe(true);
    }
    expect(await ledgerAndBalance(h.database.db, account.accountId)).toEqual({ ledger: '15.0000', balance: '15.0000' });
    const credits = await h.database.db.select().from(accountTransactions).where(eq(accountTransactions.accountId, account.accountId));
    expect(credits.filter((c) => c.kind === 'credit' && c.description === 'Top-up')).toHaveLength(1);
    expect(credits.find((c) => c.description === 'Top-up')?.idempotencyKey).toBe(`payment:${answer.payment.id}`);

    const invoices = await h.call('GET', `/v1/accounts/${account.accountId}/invoices`, account.token);
    expect(invoices.json<{ data: { total: string; status: string }[] }>().data).toEqual([expect.objectContaining({ total: '10.0000', status: 'paid' })]);
    const second = await topup(account.accountId, account.token, { amount: '20.00' }, {}, 'PUT');
    expect(second.json<TopupResult>().data.payment.status).toBe('processing');
    await deliverSandboxEvents(h.database.db);
    expect(await ledgerAndBalance(h.database.db, account.accountId)).toEqual({ ledger: '35.0000', balance: '35.0000' });
  });

  it('pays once for a retried Idempotency-Key, and refuses the key with another amount', async () => {
    const account = await withCard('0');
    const key = { 'idempotency-key': 'order-7f3a' };
    const first = await topup(account.accountId, account.token, { amount: 20 }, key);
    const retry = await topup(account.accountId, account.token, { amount: 20 }, key);
    expect(first.json<TopupResult>().data).toMatchObject({ duplicate: false });
    expect(retry.statusCode).toBe(200);
    expect(retry.json<TopupResult>().data).toMatchObject({ duplicate: true });
    expect(retry.json<TopupResult>().data.payment.id).toBe(first.json<TopupResult>().data.payment.id);
    const reused = await topup(account.accountId, account.token, { amount: 30 }, key);
    expect(reused.statusCode).toBe(409);
    expect(reused.json()).toEqual({ error: { code: 'conflict', message: IDEMPOTENCY_KEY_REUSED_MESSAGE } });
    expect((await topup(account.accountId, account.token, { amount: 10 }, { 'idempotency-key': ' ' })).statusCode).toBe(400);
    await deliverSandboxEvents(h.database.db);
    expect(await ledgerAndBalance(h.database.db, account.accountId)).toEqual({ ledger: '20.0000', balance: '20.0000' });
  });

  it('takes 10 to 1,000 in steps of 10 and refuses anything else with its message, paying nothing', async () => {
    const account = await withCard('0');
    const refused: [unknown, string][] = [
      [0, 'Minimum value is 10'],
      [9.99, 'Minimum value is 10'],
      [-10, 'Must be a number'],
      ['1000.01', 'Maximum value is 1000'],
      [1010, 'Maximum value is 1000'],
      [15, TOPUP_STEP_MESSAGE],
      ['20.5', TOPUP_STEP_MESSAGE],
      ['12.34567', 'Must be a number'],
      ['ten', 'Must be a number'],
      [null, 'Must be a number'],
    ];
    for (const [amount, message] of refused) {
      const res = await topup(account.accountId, account.token, { amount });
      expect(res.statusCode, String(amount)).toBe(400);
      expect(res.body, String(amount)).toContain(message);
    }
    await deliverSandboxEvents(h.database.db);
    expect(await ledgerAndBalance(h.database.db, account.accountId)).toEqual({ ledger: '0.0000', balance: '0.0000' });
    for (const amount of [10, '1000', '20.00']) {
      expect((await topup(account.accountId, account.token, { amount })).statusCode, String(amount)).toBe(200);
    }
    await deliverSandboxEvents(h.database.db);
    expect((await ledgerAndBalance(h.database.db, account.accountId)).balance).toBe('1030.0000');
  });

  it('needs a card on file; a declining card fails the payment and credits nothing', async () => {
    const bare = await sendingAccount(h.database.db, { balance: '0' });
    const none = await topup(bare.accountId, h.tokenFor(bare.adminId), { amount: 10 });
    expect(none.statusCode).toBe(402);
    expect(none.json()).toEqual({ error: { code: 'bad_request', message: NO_PAYMENT_METHOD_MESSAGE } });

    const declining = await withCard('0', '4000 0000 0000 0341');
    const res = await topup(declining.accountId, declining.token, { amount: 10 });
    const paymentId = res.json<TopupResult>().data.payment.id;
    await deliverSandboxEvents(h.database.db);
    const payments = await h.call('GET', `/v1/accounts/${declining.accountId}/paymentsource`, declining.token);
    expect(payments.json<{ data: { paymentSource: { last4: string } } }>().data.paymentSource.last4).toBe('0341');
    expect(await ledgerAndBalance(h.database.db, declining.accountId)).toEqual({ ledger: '0.0000', balance: '0.0000' });
    const again = await topup(declining.accountId, declining.token, { amount: 10 }, { 'idempotency-key': 'same' });
    expect(again.json<TopupResult>().data.payment.id).not.toBe(paymentId);
  });

  it('asks authentication of a card that needs it, and credits once the card holder approves', async () => {
    const account = await withCard('0', '4000 0027 6000 3184');
    const res = await topup(account.accountId, account.token, { amount: 10 });
    const answer = res.json<TopupResult>().data;
    expect(answer.payment.status).toBe('requiresAction');
    expect(answer.clientSecret).toMatch(/_secret_/);
    await deliverSandboxEvents(h.database.db);
    expect((await ledgerAndBalance(h.database.db, account.accountId)).balance).toBe('0.0000');
    const approved = await h.call('POST', '/v1/billing/sandbox/authenticate', account.token, { clientSecret: answer.clientSecret ?? '', approve: true });
    expect(approved.statusCode).toBe(204);
    expect((await h.call('POST', '/v1/billing/sandbox/authenticate', account.token, { clientSecret: answer.clientSecret ?? '', approve: true })).statusCode).toBe(404);
    await deliverSandboxEvents(h.database.db);
    expect(await ledgerAndBalance(h.database.db, account.accountId)).toEqual({ ledger: '10.0000', balance: '10.0000' });
    const invoices = await h.call('GET', `/v1/accounts/${account.accountId}/invoices`, account.token);
    expect(invoices.json<{ data: { total: string; status: string }[] }>().data).toEqual([expect.objectContaining({ total: '10.0000', status: 'paid' })]);
  });

  it('is for administrators, refuses an unverified person, and 404s for another account', async () => {
    await addSandboxCard(h, fixtures.accountId, tokens.Administrator);
    for (const role of roles) {
      const res = await topup(fixtures.accountId, tokens[role], { amount: 10 });
      expect(res.statusCode, role).toBe(role === 'Administrator' ? 200 : 403);
    }
    const unverified = await createUser(h.database.db, { emailVerifiedAt: null });
    await h.database.db.insert(accountMembers).values({ accountId: fixtures.accountId, userId: unverified.id, role: 'Administrator' });
    const refused = await topup(fixtures.accountId, h.tokenFor(unverified.id), { amount: 10 });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: { code: 'forbidden', message: UNVERIFIED_EMAIL_MESSAGE } });
    const other = await sendingAccount(h.database.db);
    expect((await topup(other.accountId, tokens.Administrator, { amount: 10 })).statusCode).toBe(404);
  });
});
