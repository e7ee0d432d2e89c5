import { eq } from 'drizzle-orm';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREDENTIALS_EXIST_MESSAGE, roles, type ApiCredentials } from '@parley/shared';
import { NO_CREDENTIALS_MESSAGE, renewCredentials, requestCredentials } from '../credentialsIssuer.js';
import { apiClients } from '../../../platform/db/schema/index.js';
import type { HttpMethod } from '../../../test/apiHarness.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { createAccount, createUser } from '../../../test/factories.js';
import { discover, startIssuerServer } from '../../../test/identity.js';
import { useRouteHarness } from '../../../test/routeHarness.js';
import type { TestServer } from '../../../test/server.js';

describe.each(testDatabaseKinds)('API credentials on %s', (kind) => {
  const { h, fixtures, tokens, ownAccount } = useRouteHarness(kind);

  const call = (method: HttpMethod, acc: string, token: string) => h.call(method, `/v1/accounts/${acc}/credentials`, token);
  const data = (res: Awaited<ReturnType<typeof call>>) => res.json<{ data: ApiCredentials }>().data;

  it('shows nothing, then the whole secret once, then only its last four characters', async () => {
    const { account, token } = await ownAccount();
    expect((await call('GET', account.id, token)).json()).toEqual({ data: null });

    const issued = await call('POST', account.id, token);
    expect(issued.statusCode).toBe(201);
    const first = data(issued);
    expect(first.accountId).toBe(account.id);
    expect(first.clientId).toMatch(/^pk_[0-9a-f]{24}$/);
    expect(first.secret).toMatch(/^[A-Za-z0-9_-]{48}$/);

    const shown = await call('GET', account.id, token);
    expect(shown.json()).toEqual({ data: { accountId: account.id, clientId: first.clientId, secret: `••••••••${first.secret.slice(-4)}` } });
    const [row] = await h.database.db.select().from(apiClients).where(eq(apiClients.clientId, first.clientId));
    expect(row?.secretHash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(first.secret);

    const again = await call('POST', account.id, token);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: { code: 'conflict', message: CREDENTIALS_EXIST_MESSAGE } });

    const renewed = await call('PUT', account.id, token);
    expect(renewed.statusCode).toBe(200);
    const second = data(renewed);
    expect(second).toMatchObject({ accountId: account.id, clientId: first.clientId });
    expect(second.secret).not.toBe(first.secret);
    expect(data(await call('GET', account.id, token)).secret).toBe(`••••••••${second.secret.slice(-4)}`);
    expect(await h.database.db.select().from(apiClients).where(eq(apiClients.accountId, account.id))).toHaveLength(1);
  });

  it('cannot renew what was never requested', async () => {
    const { account, token } = await ownAccount();
    const res = await call('PUT', account.id, token);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: { code: 'not_found', message: NO_CREDENTIALS_MESSAGE } });
  });

  it('gives one set of credentials to two requests at the same time', async () => {
    const { account, token } = await ownAccount();
    const answers = await Promise.all([call('POST', account.id, token), call('POST', account.id, token)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
  });

  it('is for administrators only, and another account answers 404', async () => {
    for (const method of ['GET', 'POST', 'PUT'] as const) {
      for (const role of roles) {
        const res = await call(method, fixtures.accountId, tokens[role]);
        if (role === 'Administrator') expect(res.statusCode, `${method} ${role}`).toBeLessThan(300);
        else expect(res.statusCode, `${method} ${role}`).toBe(403);
      }
      const { account } = await ownAccount();
      expect((await call(method, account.id, tokens.Administrator)).statusCode).toBe(404);
    }
  });
});

describe.each(testDatabaseKinds)('API credentials at the token endpoint (%s)', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startIssuerServer(kind);
  });
  afterAll(async () => {
    await server.stop();
  });

  const token = async (credentials: ApiCredentials): Promise<string> => {
    const config = await discover(server.config.identity.issuer, credentials.clientId, oidc.ClientSecretBasic(credentials.secret));
    return (await oidc.clientCredentialsGrant(config)).access_token;
  };

  it('renewing makes the old secret fail at once and the new one work', async () => {
    const account = await createAccount(server.database.db, { [(await createUser(server.database.db)).id]: 'Administrator' });
    const first = await requestCredentials(server.database.db, account.id);
    const access = await token(first);
    const renewed = await fetch(`${server.baseUrl}/v1/accounts/${account.id}/credentials`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${access}` },
    });
    expect(renewed.status).toBe(200);
    const second = ((await renewed.json()) as { data: ApiCredentials }).data;
    await expect(token(first)).rejects.toMatchObject({ status: 401 });
    const fresh = await token(second);
    const users = await fetch(`${server.baseUrl}/v1/accounts/${account.id}/users`, { headers: { authorization: `Bearer ${fresh}` } });
    expect(users.status).toBe(200);
  });

  it('renewing refuses the access tokens issued for the old secret, however often the new one is used', async () => {
    const account = await createAccount(server.database.db, { [(await createUser(server.database.db)).id]: 'Administrator' });
    const first = await requestCredentials(server.database.db, account.id);
    const old = await token(first);
    const users = (access: string) =>
      fetch(`${server.baseUrl}/v1/accounts/${account.id}/users`, { headers: { authorization: `Bearer ${access}` } }).then((r) => r.status);
    expect(await users(old)).toBe(200);
    const second = await renewCredentials(server.database.db, account.id);
    expect(await users(old)).toBe(401);
    const fresh = await token(second);
    // The new token's confirmation must not let the old one back in while it is kept.
    expect(await users(fresh)).toBe(200);
    expect(await users(old)).toBe(401);
    expect(await users(fresh)).toBe(200);
    const claims = JSON.parse(Buffer.from(fresh.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
    expect(claims.secret_version).toMatch(/^[0-9a-f]{16}$/);
    expect(fresh).not.toContain(second.secret);
  });
});
