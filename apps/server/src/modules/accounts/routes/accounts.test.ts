import { randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { roles, type Account, type AccountSummary, type CreateAccountInput } from '@parley/shared';
import { seedPlans } from '../../billing/plans.js';
import { accountMembers, accounts, accountTransactions } from '../../../platform/db/schema/index.js';
import { ledgerAndBalance, outboxEvents } from '../../../test/accounts.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { closeAccount, createAccount, createUser, ensureTestPlan } from '../../../test/factories.js';
import { useRouteHarness } from '../../../test/routeHarness.js';


const form = (overrides: Partial<CreateAccountInput> = {}): CreateAccountInput => ({
  name: 'Acme Dental',
  defaults: { country: 'US' },
  support: { address: '1 Main St, Springfield', phone: '(415) 555-2671', email: 'Front@Acme.example' },
  questionnaire: { messagingVolume: '1-1,000', messagingType: ['one to one'], desiredIntegrations: ['HubSpot'] },
  ...overrides,
});

describe.each(testDatabaseKinds)('accounts on %s', (kind) => {
  const { h, fixtures, tokens, ownAccount } = useRouteHarness(kind, { seed: seedPlans });

  const accountCount = async () => (await h.database.db.select({ n: count() }).from(accounts))[0]?.n;

  describe('GET /v1/accounts', () => {
    it('lists the open accounts of the caller with its role, paged', async () => {
      for (const role of roles) {
        const res = await h.call('GET', '/v1/accounts', tokens[role]);
        expect(res.statusCode, role).toBe(200);
        const body = res.json<{ data: AccountSummary[]; pagination: unknown }>();
        expect(body.pagination).toEqual({ totalCount: 1, offset: 0, limit: 10 });
        expect(body.data).toEqual([
          expect.objectContaining({ id: fixtures.accountId, user: { role }, plan: expect.objectContaining({ id: 'test-plan' }) as unknown }),
        ]);
      }
      const user = await createUser(h.database.db);
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await createAccount(h.database.db, { [user.id]: 'Sender' })).id);
      const closed = await createAccount(h.database.db, { [user.id]: 'Administrator' });
      await closeAccount(h.database.db, closed.id);
      const token = h.tokenFor(user.id);
      const page = await h.call('GET', '/v1/accounts?limit=2&offset=1', token);
      expect(page.json()).toMatchObject({ pagination: { totalCount: 3, offset: 1, limit: 2 } });
      expect(page.json<{ data: AccountSummary[] }>().data.map((a) => a.id)).toEqual(ids.slice(1));
    });

    it('answers an empty list to a user without accounts, 401 without a token, 400 for a bad page', async () => {
      const lonely = await createUser(h.database.db);
      const res = await h.call('GET', '/v1/accounts', h.tokenFor(lonely.id));
      expect(res.json()).toEqual({ data: [], pagination: { totalCount: 0, offset: 0, limit: 10 } });
      expect((await h.call('GET', '/v1/accounts', undefined)).statusCode).toBe(401);
      for (const query of ['limit=0', 'limit=101', 'limit=abc', 'offset=-1']) {
        const bad = await h.call('GET', `/v1/accounts?${query}`, tokens.ReadOnly);
        expect(bad.statusCode, query).toBe(400);
        expect(bad.json()).toMatchObject({ error: { code: 'validation_failed' } });
      }
      expect((await h.call('GET', '/v1/accounts?limit=abc', tokens.ReadOnly)).json()).toMatchObject({
        error: { message: expect.stringContaining('Must be a number') as string },
      });
    });

    it("lists an API client's own account only, as Administrator", async () => {
      const clientId = `client-${randomUUID()}`;
      const token = h.authenticator.add({ userId: clientId, clientId, accountIds: [fixtures.accountId] });
      const res = await h.call('GET', '/v1/accounts', token);
      expect(res.json<{ data: AccountSummary[] }>().data).toEqual([
        expect.objectContaining({ id: fixtures.accountId, user: { role: 'Administrator' } }),
      ]);
    });
  });

  describe('POST /v1/accounts', () => {
    it('opens a trial account with the creator as Administrator and the trial credit in the ledger', async () => {
      const user = await createUser(h.database.db);
      const token = h.tokenFor(user.id);
      const res = await h.call('POST', '/v1/accounts', token, form({ promoCode: 'SPRING' }));
      expect(res.statusCode).toBe(201);
      const account = res.json<{ data: Account }>().data;
      expect(account).toMatchObject({
        name: 'Acme Dental',
        balance: '10.0000',
        plan: { id: 'trial', name: 'Trial', price: '0.0000', isTrial: true },
        defaults: { country: { code: 'US', name: 'United States' }, messageFrequency: null },
        options: { verifyNumberType: false, universalMMS: false, contactTracking: false, autoLinkShorten: null },
        support: { address: '1 Main St, Springfield', phone: '(415) 555-2671', email: 'front@acme.example' },
        questionnaire: { messagingVolume: '1-1,000', messagingType: ['one to one'], desiredIntegrations: ['HubSpot'] },
        promoCode: 'SPRING',
        user: { role: 'Administrator' },
        trial: { daysLeft: 15, expired: false },
      });
      expect(account.plan.pricing.DEFAULT?.sms.outbound).toMatch(/^\d+\.\d{4}$/);

      const [member] = await h.database.db.select().from(accountMembers).where(eq(accountMembers.accountId, account.id));
      expect(member).toMatchObject({ userId: user.id, role: 'Administrator' });
      const ledger = await h.database.db
        .select()
        .from(accountTransactions)
        .where(eq(accountTransactions.accountId, account.id));
      expect(ledger).toEqual([
        expect.objectContaining({ kind: 'credit', amount: '10.0000', balanceAfter: '10.0000', description: 'Trial credit' }),
      ]);
      expect(await ledgerAndBalance(h.database.db, account.id)).toEqual({ ledger: '10.0000', balance: '10.0000' });
      expect(await outboxEvents(h.database.db, 'accountCreated', account.id)).toEqual([
        { data: { accountId: account.id, name: 'Acme Dental', planId: 'trial' } },
      ]);

      const list = await h.call('GET', '/v1/accounts', token);
      expect(list.json<{ data: AccountSummary[] }>().data.map((a) => a.id)).toEqual([account.id]);
      const read = await h.call('GET', `/v1/accounts/${account.id}`, token);
      expect(read.json<{ data: Account }>().data).toEqual(account);
    });

    it('refuses bad input with the message of each field and creates nothing', async () => {
      const token = h.tokenFor((await createUser(h.database.db)).id);
      const before = await accountCount();
      const cases: [object, string][] = [
        [{}, 'name: Required'],
        [form({ name: '   ' }), 'name: Required'],
        [form({ defaults: { country: 'XX' } }), 'defaults.country: Country is not valid'],
        [form({ support: { address: 'a', phone: '12', email: 'x@y.z' } }), 'support.phone: Country or Number is not valid'],
        [form({ support: { address: 'a', phone: '(415) 555-2671', email: 'nope' } }), 'support.email: Invalid email address'],
        [
          form({ support: { address: 'a', phone: '(415) 555-2671', email: 'a@b.co', website: 'acme.example' } }),
          'support.website: Valid URL with http or https prefix required',
        ],
        [
          form({ questionnaire: { messagingVolume: '1-1,000', messagingType: [] } }),
          'questionnaire.messagingType: Must select 1 or more',
        ],
      ];
      for (const [body, message] of cases) {
        const res = await h.call('POST', '/v1/accounts', token, body);
        expect(res.statusCode, message).toBe(400);
        expect(res.json<{ error: { code: string; message: string } }>().error).toMatchObject({
          code: 'validation_failed',
          message: expect.stringContaining(message) as string,
        });
      }
      expect(await accountCount()).toBe(before);
    });

    it('refuses API clients and callers without a token', async () => {
      const clientId = `client-${randomUUID()}`;
      const token = h.authenticator.add({ userId: clientId, clientId, accountIds: [fixtures.accountId] });
      const before = await accountCount();
      const res = await h.call('POST', '/v1/accounts', token, {});
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: { code: 'forbidden', message: 'API credentials may not create accounts.' } });
      expect((await h.call('POST', '/v1/accounts', undefined, form())).statusCode).toBe(401);
      expect(await accountCount()).toBe(before);
    });
  });

  describe('GET /v1/accounts/{acc}', () => {
    it('shows the account to every role, with that role', async () => {
      for (const role of roles) {
        const res = await h.call('GET', `/v1/accounts/${fixtures.accountId}`, tokens[role]);
        expect(res.statusCode, role).toBe(200);
        const account = res.json<{ data: Account }>().data;
        expect(account).toMatchObject({ id: fixtures.accountId, balance: '0.0000', user: { role } });
        expect(account.plan).toEqual({
          id: 'test-plan',
          name: 'Test Plan',
          price: '49.0000',
          isTrial: false,
          pricing: { DEFAULT: { sms: { outbound: '0.0100' } } },
          maxConversationPeriod: null,
        });
        expect(account).not.toHaveProperty('trial');
        // Billing (the card, subscription and auto top-up) only for those who may see billing.
        if (role === 'Administrator') {
          expect(account).toMatchObject({ paymentSource: null, subscription: null, options: { autotopup: null } });
        } else {
          expect(account).not.toHaveProperty('paymentSource');
          expect(account).not.toHaveProperty('subscription');
          expect(account.options).not.toHaveProperty('autotopup');
        }
      }
    });

    it('counts trial days from creation and says when the trial has expired', async () => {
      const trialPlan = await ensureTestPlan(h.database.db, 'test-trial', true);
      const day = 24 * 60 * 60 * 1000;
      const fresh = await ownAccount({ planId: trialPlan, createdAt: new Date(Date.now() - 3 * day - 1000) });
      const old = await ownAccount({ planId: trialPlan, createdAt: new Date(Date.now() - 16 * day) });
      const read = async (o: typeof fresh) =>
        (await h.call('GET', `/v1/accounts/${o.account.id}`, o.token)).json<{ data: Account }>().data.trial;
      const endOf = (o: typeof fresh) => new Date(o.account.createdAt.getTime() + 15 * day).toISOString();
      expect(await read(fresh)).toEqual({ daysLeft: 12, expired: false, endsAt: endOf(fresh) });
      expect(await read(old)).toEqual({ daysLeft: 0, expired: true, endsAt: endOf(old) });
    });

    it("answers 404 for another account, an unknown id and a closed account, 401 without a token", async () => {
      const other = await ownAccount();
      for (const acc of [other.account.id, randomUUID()]) {
        const res = await h.call('GET', `/v1/accounts/${acc}`, tokens.Administrator);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ error: { code: 'not_found', message: 'The account was not found.' } });
      }
      await closeAccount(h.database.db, other.account.id);
      expect((await h.call('GET', `/v1/accounts/${other.account.id}`, other.token)).statusCode).toBe(404);
      expect((await h.call('GET', `/v1/accounts/${fixtures.accountId}`, undefined)).statusCode).toBe(401);
    });
  });

  describe('PUT /v1/accounts/{acc}', () => {
    it('lets the administrator change name, defaults and support', async () => {
      const { account, token } = await ownAccount();
      const res = await h.call('PUT', `/v1/accounts/${account.id}`, token, {
        name: ' Acme West ',
        defaults: { country: 'gb', messageFrequency: { quantity: 3, frequency: 'week' } },
        support: { address: '2 High St', phone: '020 7946 0958', email: 'help@acme.example', website: 'https://acme.example' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json<{ data: Account }>().data).toMatchObject({
        name: 'Acme West',
        defaults: { country: { code: 'GB', name: 'United Kingdom' }, messageFrequency: { quantity: 3, frequency: 'week' } },
        support: { address: '2 High St', phone: '020 7946 0958', email: 'help@acme.example', website: 'https://acme.example' },
      });
      const partial = await h.call('PUT', `/v1/accounts/${account.id}`, token, { name: 'Acme' });
      expect(partial.json<{ data: Account }>().data).toMatchObject({
        name: 'Acme',
        defaults: { country: { code: 'GB' }, messageFrequency: { quantity: 3, frequency: 'week' } },
      });
      const cleared = await h.call('PUT', `/v1/accounts/${account.id}`, token, { defaults: { messageFrequency: null } });
      expect(cleared.json<{ data: Account }>().data.defaults.messageFrequency).toBeNull();
      expect(await outboxEvents(h.database.db, 'accountUpdated', account.id)).toHaveLength(3);
    });

    it('refuses bad input with the message of each field and changes nothing', async () => {
      const { account, token } = await ownAccount();
      const cases: [object, string][] = [
        [{ name: '' }, 'name: Required'],
        [{ defaults: { country: 'FR' } }, 'defaults.country: Country is not valid'],
        [{ defaults: { messageFrequency: { quantity: 'many', frequency: 'day' } } }, 'Must be a number'],
        [{ defaults: { messageFrequency: { quantity: 0, frequency: 'day' } } }, 'Minimum value is 1'],
        [{ defaults: { messageFrequency: { quantity: 1001, frequency: 'day' } } }, 'Maximum value is 1000'],
        [{ defaults: { messageFrequency: { quantity: 2, frequency: 'year' } } }, 'defaults.messageFrequency.frequency'],
        [{ support: { address: 'a', phone: '020 7946 0958', email: 'a@b.co' } }, 'support.phone: Country or Number is not valid'],
        [{ support: { address: '', phone: '(415) 555-2671', email: 'a@b.co' } }, 'support.address: Required'],
      ];
      for (const [body, message] of cases) {
        const res = await h.call('PUT', `/v1/accounts/${account.id}`, token, body);
        expect(res.statusCode, message).toBe(400);
        expect(res.json<{ error: { message: string } }>().error.message).toContain(message);
      }
      const after = (await h.call('GET', `/v1/accounts/${account.id}`, token)).json<{ data: Account }>().data;
      expect(after).toMatchObject({ name: account.name, defaults: { country: { code: 'US' }, messageFrequency: null } });
    });

    it('lets only the administrator change settings, and only of its own account', async () => {
      for (const role of roles) {
        const res = await h.call('PUT', `/v1/accounts/${fixtures.accountId}`, tokens[role], { name: `Renamed by ${role}` });
        expect(res.statusCode, role).toBe(role === 'Administrator' ? 200 : 403);
      }
      const refused = await h.call('PUT', `/v1/accounts/${fixtures.accountId}`, tokens.CampaignManager, { name: 'x' });
      expect(refused.json()).toEqual({
        error: { code: 'forbidden', message: 'Your role (Campaign Manager) may not do this: change account settings.' },
      });
      const other = await ownAccount();
      expect((await h.call('PUT', `/v1/accounts/${other.account.id}`, tokens.Administrator, { name: 'x' })).statusCode).toBe(404);
      await closeAccount(h.database.db, other.account.id);
      expect((await h.call('PUT', `/v1/accounts/${other.account.id}`, other.token, { name: 'x' })).statusCode).toBe(404);
    });
  });

  describe('PUT /v1/accounts/{acc}/options', () => {
    it('merges the options sent into the account', async () => {
      const { account, token } = await ownAccount({ options: { autotopup: { amount: 10, below: 5 } } });
      const url = `/v1/accounts/${account.id}/options`;
      const first = await h.call('PUT', url, token, { contactTracking: true });
      expect(first.statusCode).toBe(200);
      // The administrator sees the auto top-up rule the options keep (it is changed through .../autotopup).
      const autotopup = { below: '5.0000', amount: '10.0000', stopped: false };
      expect(first.json<{ data: Account }>().data.options).toEqual({
        verifyNumberType: false,
        universalMMS: false,
        contactTracking: true,
        autoLinkShorten: null,
        autotopup,
      });
      const second = await h.call('PUT', url, token, { universalMMS: true, verifyNumberType: true });
      expect(second.json<{ data: Account }>().data.options).toEqual({
        verifyNumberType: true,
        universalMMS: true,
        contactTracking: true,
        autoLinkShorten: null,
        autotopup,
      });
      const [row] = await h.database.db.select({ options: accounts.options }).from(accounts).where(eq(accounts.id, account.id));
      expect(row?.options).toEqual({ autotopup: { amount: 10, below: 5 }, contactTracking: true, universalMMS: true, verifyNumberType: true });
      const bad = await h.call('PUT', url, token, { contactTracking: 'yes' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ error: { code: 'validation_failed', message: expect.stringContaining('contactTracking') as string } });
    });

    it('lets only the administrator change options, and only of its own account', async () => {
      for (const role of roles) {
        const res = await h.call('PUT', `/v1/accounts/${fixtures.accountId}/options`, tokens[role], { universalMMS: true });
        expect(res.statusCode, role).toBe(role === 'Administrator' ? 200 : 403);
      }
      const other = await ownAccount();
      const res = await h.call('PUT', `/v1/accounts/${other.account.id}/options`, tokens.Administrator, { universalMMS: true });
      expect(res.statusCode).toBe(404);
    });
  });

  describe('POST /v1/accounts/{acc}/close', () => {
    it('needs feedback, then closes the account for all its users', async () => {
      const { account, admin, token } = await ownAccount();
      const reader = await createUser(h.database.db);
      await h.database.db.insert(accountMembers).values({ accountId: account.id, userId: reader.id, role: 'ReadOnly' });
      const readerToken = h.tokenFor(reader.id);
      const url = `/v1/accounts/${account.id}/close`;
      for (const body of [{}, { feedback: '  ' }]) {
        const res = await h.call('POST', url, token, body);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ error: { code: 'validation_failed', message: 'feedback: Required' } });
      }
      expect((await h.call('GET', `/v1/accounts/${account.id}`, token)).statusCode).toBe(200);

      const closed = await h.call('POST', url, token, { feedback: 'Moving to another provider' });
      expect(closed.statusCode).toBe(204);
      expect(closed.body).toBe('');
      for (const t of [token, readerToken]) {
        expect((await h.call('GET', `/v1/accounts/${account.id}`, t)).statusCode).toBe(404);
        expect((await h.call('GET', '/v1/accounts', t)).json()).toMatchObject({ data: [], pagination: { totalCount: 0 } });
      }
      expect((await h.call('POST', url, token, { feedback: 'again' })).statusCode).toBe(404);
      const [row] = await h.database.db.select().from(accounts).where(eq(accounts.id, account.id));
      expect(row).toMatchObject({ status: 'closed', closeFeedback: 'Moving to another provider' });
      expect(row?.closedAt).toBeInstanceOf(Date);
      expect(await outboxEvents(h.database.db, 'accountClosed', account.id)).toEqual([
        { data: { accountId: account.id, closedBy: admin.id } },
      ]);
    });

    it('lets only the administrator close, and only its own account', async () => {
      const { account } = await ownAccount();
      for (const role of roles.filter((r) => r !== 'Administrator')) {
        const res = await h.call('POST', `/v1/accounts/${fixtures.accountId}/close`, tokens[role], { feedback: 'bye' });
        expect(res.statusCode, role).toBe(403);
      }
      const res = await h.call('POST', `/v1/accounts/${account.id}/close`, tokens.Administrator, { feedback: 'bye' });
      expect(res.statusCode).toBe(404);
      expect((await h.call('GET', `/v1/accounts/${fixtures.accountId}`, tokens.ReadOnly)).statusCode).toBe(200);
    });
  });
});
