import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { roles, type Role } from '@parley/shared';
import type { Database } from '../../platform/db/client.js';
import { accountMembers } from '../../platform/db/schema/index.js';
import { TableAuthenticator } from '../../test/apiHarness.js';
import { testDatabaseKinds, openTestDatabase } from '../../test/databases.js';
import { closeAccount, createAccount, createUser, roleFixtures } from '../../test/factories.js';
import { silentLogger } from '../../test/logger.js';
import { testConfig } from '../../test/config.js';
import { JobQueue } from '../../platform/jobs/queue.js';
import { createLocalMailbox } from '../../platform/mail/localMailbox.js';
import { buildApp, type App } from '../../app/httpApp.js';
import { membershipOf, principalOf } from './guard.js';
import { ROLE_CACHE_MS } from './memberships.js';
import { createCarrierRegistry } from '../carriers/registry.js';
import { createMessageHandlers } from '../messaging/handlers.js';

describe.each(testDatabaseKinds)('the API guard on %s', (kind) => {
  let database: Database;
  let app: App;
  const authenticator = new TableAuthenticator();
  let fixtures: Awaited<ReturnType<typeof roleFixtures>>;
  const tokens = {} as Record<Role, string>;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    const config = testConfig();
    const jobs = new JobQueue({ database, log: silentLogger(), work: false, schedule: false, retryLimit: 0, retryDelaySeconds: 1 });
    app = await buildApp(
      { config, log: silentLogger(), database, jobs, authenticator, mailer: createLocalMailbox(database.db), carriers: createCarrierRegistry('simulator', { deployment: {} }), carrierHandlers: createMessageHandlers({ database, log: silentLogger() }) },
      { webDist: null },
    );
    app.get('/v1/probe/me', { config: { permission: 'authenticated' } }, (request) => ({
      userId: principalOf(request).userId,
    }));
    app.get('/v1/accounts/:acc/probe/view', { config: { permission: 'account.view' } }, (request) => membershipOf(request));
    app.post('/v1/accounts/:acc/probe/campaigns', { config: { permission: 'campaigns.write' } }, (request) =>
      membershipOf(request),
    );
    await app.ready();
    fixtures = await roleFixtures(database.db);
    for (const role of roles) tokens[role] = authenticator.add({ userId: fixtures.users[role], accountIds: [] });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const call = (method: 'GET' | 'POST', url: string, token?: string) =>
    app.inject({ method, url, headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });

  it('answers 401 without a valid token, before looking at anything else', async () => {
    for (const token of [undefined, 'not-a-known-token']) {
      const res = await call('GET', '/v1/probe/me', token);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: { code: 'unauthorized', message: 'Sign in to continue.' } });
      const scoped = await call('POST', `/v1/accounts/${fixtures.accountId}/probe/campaigns`, token);
      expect(scoped.statusCode).toBe(401);
    }
    expect((await call('GET', '/v1/probe/me', tokens.ReadOnly)).json()).toEqual({ userId: fixtures.users.ReadOnly });
  });

  it('lets every role view and only the table-allowed roles act', async () => {
    for (const role of roles) {
      const view = await call('GET', `/v1/accounts/${fixtures.accountId}/probe/view`, tokens[role]);
      expect(view.statusCode).toBe(200);
      expect(view.json()).toEqual({ accountId: fixtures.accountId, role });
      const write = await call('POST', `/v1/accounts/${fixtures.accountId}/probe/campaigns`, tokens[role]);
      const allowed = role === 'Administrator' || role === 'CampaignManager';
      expect(write.statusCode, role).toBe(allowed ? 200 : 403);
    }
    const refused = await call('POST', `/v1/accounts/${fixtures.accountId}/probe/campaigns`, tokens.Sender);
    expect(refused.json()).toEqual({
      error: { code: 'forbidden', message: expect.stringContaining('Your role (Sender) may not do this') as string },
    });
  });

  it("answers 404 for another account, an unknown or malformed id and a closed account", async () => {
    const other = await createAccount(database.db, { [(await createUser(database.db)).id]: 'Administrator' });
    for (const acc of [other.id, randomUUID(), 'not-a-uuid']) {
      const res = await call('GET', `/v1/accounts/${acc}/probe/view`, tokens.Administrator);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: { code: 'not_found', message: 'The account was not found.' } });
    }
    const owner = await createUser(database.db);
    const closing = await createAccount(database.db, { [owner.id]: 'Administrator' });
    const token = authenticator.add({ userId: owner.id, accountIds: [] });
    expect((await call('GET', `/v1/accounts/${closing.id}/probe/view`, token)).statusCode).toBe(200);
    await closeAccount(database.db, closing.id);
    expect((await call('GET', `/v1/accounts/${closing.id}/probe/view`, token)).statusCode).toBe(404);
  });

  it('refuses a removed member at once in the process that removed them, and within seconds in any other', async () => {
    const [owner, member, elsewhere] = [await createUser(database.db), await createUser(database.db), await createUser(database.db)];
    const account = await createAccount(database.db, { [owner.id]: 'Administrator', [member.id]: 'Sender', [elsewhere.id]: 'Sender' });
    const [ownerToken, memberToken, elsewhereToken] = [owner, member, elsewhere].map((u) => authenticator.add({ userId: u.id, accountIds: [] }));
    const view = (token: string | undefined) => call('GET', `/v1/accounts/${account.id}/probe/view`, token);
    expect((await view(memberToken)).statusCode).toBe(200);
    expect((await view(elsewhereToken)).statusCode).toBe(200);

    // Through the product: this process forgets the account's cached roles when the removal commits.
    const removed = await app.inject({ method: 'DELETE', url: `/v1/accounts/${account.id}/users/${member.id}`, headers: { authorization: `Bearer ${ownerToken}` } });
    expect(removed.statusCode).toBe(204);
    expect((await view(memberToken)).statusCode).toBe(404);
    expect((await view(elsewhereToken)).statusCode).toBe(200);

    // As another process would see it: the row goes without this process hearing of it.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      await database.db.delete(accountMembers).where(and(eq(accountMembers.accountId, account.id), eq(accountMembers.userId, elsewhere.id)));
      expect((await view(elsewhereToken)).statusCode).toBe(200);
      vi.setSystemTime(Date.now() + ROLE_CACHE_MS);
      expect((await view(elsewhereToken)).statusCode).toBe(404);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps no refusal: a member added after a refused request is let in at once', async () => {
    const [owner, joining] = [await createUser(database.db), await createUser(database.db)];
    const account = await createAccount(database.db, { [owner.id]: 'Administrator' });
    const token = authenticator.add({ userId: joining.id, accountIds: [] });
    expect((await call('GET', `/v1/accounts/${account.id}/probe/view`, token)).statusCode).toBe(404);
    await database.db.insert(accountMembers).values({ accountId: account.id, userId: joining.id, role: 'ReadOnly' });
    expect((await call('GET', `/v1/accounts/${account.id}/probe/view`, token)).json()).toEqual({ accountId: account.id, role: 'ReadOnly' });
  });

  it('refuses an API client of an account closed by the product at once', async () => {
    const owner = await createUser(database.db);
    const account = await createAccount(database.db, { [owner.id]: 'Administrator' });
    const clientId = `client-${randomUUID()}`;
    const token = authenticator.add({ userId: clientId, clientId, accountIds: [account.id] });
    expect((await call('GET', `/v1/accounts/${account.id}/probe/view`, token)).statusCode).toBe(200);
    const closed = await app.inject({
      method: 'POST',
      url: `/v1/accounts/${account.id}/close`,
      headers: { authorization: `Bearer ${authenticator.add({ userId: owner.id, accountIds: [] })}`, 'content-type': 'application/json' },
      payload: { feedback: 'Moving on' },
    });
    expect(closed.statusCode).toBe(204);
    expect((await call('GET', `/v1/accounts/${account.id}/probe/view`, token)).statusCode).toBe(404);
  });

  it('lets an API client act as administrator of its own account only', async () => {
    const clientId = `client-${randomUUID()}`;
    const token = authenticator.add({ userId: clientId, clientId, accountIds: [fixtures.accountId] });
    const own = await call('POST', `/v1/accounts/${fixtures.accountId}/probe/campaigns`, token);
    expect(own.json()).toEqual({ accountId: fixtures.accountId, role: 'Administrator' });
    const other = await createAccount(database.db);
    expect((await call('GET', `/v1/accounts/${other.id}/probe/view`, token)).statusCode).toBe(404);
  });
});
