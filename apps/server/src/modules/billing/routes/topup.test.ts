import { describe, expect, it } from 'vitest';
import { roles, TOPUP_STEP_MESSAGE, type TopupResult } from '@parley/shared';
import { sendingAccount } from '../../../test/sendingFixtures.js';
import { accountMembers } from '../../../platform/db/schema/index.js';
import { createUser } from '../../../test/factories.js';
import { ledgerAndBalance } from '../../../test/accounts.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { useRouteHarness } from '../../../test/routeHarness.js';
import { UNVERIFIED_EMAIL_MESSAGE } from '../../../platform/policies/verifiedEmail.js';
import { IDEMPOTENCY_KEY_REUSED_MESSAGE } from '../sandboxTopup.js';
import { TOPUP_UNAVAILABLE_MESSAGE } from './topup.js';

describe.each(testDatabaseKinds)('sandbox top-up on %s', (kind) => {
  const { h, fixtures, tokens } = useRouteHarness(kind);

  const topup = async (acc: string, token: string, body: object, headers: Record<string, string> = {}, method: 'POST' | 'PUT' = 'POST') =>
    h.app.inject({ method, url: `/v1/accounts/${acc}/topup`, headers: { authorization: `Bearer ${token}`, ...headers }, payload: body });

  it('credits the ledger and answers the new balance, by POST and by PUT', async () => {
    const account = await sendingAccount(h.database.db, { balance: '5' });
    const token = h.tokenFor(account.adminId);
    const first = await topup(account.accountId, token, { amount: 10 });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json<TopupResult>().data).toMatchObject({
      balance: '15.0000',
      duplicate: false,
      charge: { kind: 'credit', amount: '10.0000', balanceAfter: '15.0000', description: 'Top-up (sandbox payment)' },
    });
    const second = await topup(account.accountId, token, { amount: '20.00' }, {}, 'PUT');
    expect(second.json<TopupResult>().data.balance).toBe('35.0000');
    const sums = await ledgerAndBalance(h.database.db, account.accountId);
    expect(sums).toEqual({ ledger: '35.0000', balance: '35.0000' });
  });

  it('credits once for a retried Idempotency-Key, and refuses the key with another amount', async () => {
    const account = await sendingAccount(h.database.db, { balance: '0' });
    const token = h.tokenFor(account.adminId);
    const key = { 'idempotency-key': 'order-7f3a' };
    const first = await topup(account.accountId, token, { amount: 20 }, key);
    const retry = await topup(account.accountId, token, { amount: 20 }, key);
    expect(first.json<TopupResult>().data).toMatchObject({ balance: '20.0000', duplicate: false });
    expect(retry.statusCode).toBe(200);
    expect(retry.json<TopupResult>().data).toMatchObject({ balance: '20.0000', duplicate: true });
    expect(retry.json<TopupResult>().data.charge.id).toBe(first.json<TopupResult>().data.charge.id);
    const reused = await topup(account.accountId, token, { amount: 30 }, key);
    expect(reused.statusCode).toBe(409);
    expect(reused.json()).toEqual({ error: { code: 'conflict', message: IDEMPOTENCY_KEY_REUSED_MESSAGE } });
    // The same key in another account is another payment.
    const other = await sendingAccount(h.database.db, { balance: '0' });
    expect((await topup(other.accountId, h.tokenFor(other.adminId), { amount: 20 }, key)).json<TopupResult>().data.duplicate).toBe(false);
    expect((await topup(account.accountId, token, { amount: 10 }, { 'idempotency-key': ' ' })).statusCode).toBe(400);
    expect(await ledgerAndBalance(h.database.db, account.accountId)).toEqual({ ledger: '20.0000', balance: '20.0000' });
  });

  it('takes 10 to 1,000 in steps of 10 and refuses anything else with its message, crediting nothing', async () => {
    const account = await sendingAccount(h.database.db, { balance: '0' });
    const token = h.tokenFor(account.adminId);
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
      ['1e3', 'Must be a number'],
      [null, 'Must be a number'],
      [0.1 + 0.2, 'Must be a number'],
    ];
    for (const [amount, message] of refused) {
      const res = await topup(account.accountId, token, { amount });
      expect(res.statusCode, String(amount)).toBe(400);
      expect(res.body, String(amount)).toContain(message);
    }
    expect((await topup(account.accountId, token, {})).statusCode).toBe(400);
    expect(await ledgerAndBalance(h.database.db, account.accountId)).toEqual({ ledger: '0.0000', balance: '0.0000' });
    for (const amount of [10, '1000', 1000, '20.00', '0090']) {
      expect((await topup(account.accountId, token, { amount })).statusCode, String(amount)).toBe(200);
    }
    expect((await ledgerAndBalance(h.database.db, account.accountId)).balance).toBe('2120.0000');
  });

  it('is for administrators, refuses an unverified person, and 404s for another account', async () => {
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

describe.each(testDatabaseKinds)('top-up in PostgreSQL mode on %s', (kind) => {
  const { h, tokens, fixtures } = useRouteHarness(kind, {
    env: { DATABASE_URL: 'postgres://parley@127.0.0.1:5432/parley', SECRETS_KEY: 'a'.repeat(64) },
  });

  it('answers 404 until a real payment provider exists, and credits nothing', async () => {
    const res = await h.call('POST', `/v1/accounts/${fixtures.accountId}/topup`, tokens.Administrator, { amount: 10 });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: { code: 'not_found', message: TOPUP_UNAVAILABLE_MESSAGE } });
    expect(await ledgerAndBalance(h.database.db, fixtures.accountId)).toEqual({ ledger: '0.0000', balance: '0.0000' });
  });
});
