import crypto, { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  roles,
  WEB_PUSH_API_CLIENTS_MESSAGE,
  WEB_PUSH_AUTH_MESSAGE,
  WEB_PUSH_ENDPOINT_MESSAGE,
  WEB_PUSH_UNAVAILABLE_MESSAGE,
  type WebPushSubscription,
} from '@parley/shared';
import { webPushKeys, webPushSubscriptions } from '../../../platform/db/schema/index.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { createUser } from '../../../test/factories.js';
import { useRouteHarness } from '../../../test/routeHarness.js';
import { browserSubscription } from '../test/localPushService.js';
import { publicKeyOf } from '../keys.js';
import { SecretCipher } from '../../../platform/secrets/cipher.js';
import { accountMembers } from '../../../platform/db/schema/index.js';

const secretsKey = crypto.randomBytes(32);
const settingsUrl = (acc: string) => `/v1/accounts/${acc}/webpush`;
const registerUrl = (acc: string) => `/v1/accounts/${acc}/webpush/register`;
const browser = () => browserSubscription(`https://push.example.test/wpush/${randomUUID()}`);
const registration = (b: { endpoint: string; keys: { p256dh: string; auth: string } }) => ({
  type: 'webpush',
  subscription: { endpoint: b.endpoint, expirationTime: null, keys: b.keys },
});

describe.each(testDatabaseKinds)('web push routes on %s', (kind) => {
  // A key of its own, so the embedded default (a key file under ./data) is never written by tests.
  const { h, fixtures, tokens, ownAccount } = useRouteHarness(kind, { env: { SECRETS_KEY: secretsKey.toString('base64') } });

  const rowsOf = (endpoint: string) => h.database.db.select().from(webPushSubscriptions).where(eq(webPushSubscriptions.endpoint, endpoint));

  it('hands out one key pair, made on first use and kept, its private half encrypted', async () => {
    const first = await h.call('GET', settingsUrl(fixtures.accountId), tokens.ReadOnly);
    expect(first.statusCode, first.body).toBe(200);
    const { publicKey } = first.json<{ data: { publicKey: string } }>().data;
    expect(Buffer.from(publicKey, 'base64url')).toHaveLength(65);
    const { account, token } = await ownAccount();
    expect((await h.call('GET', settingsUrl(account.id), token)).json()).toEqual({ data: { publicKey } });
    const [row] = await h.database.db.select().from(webPushKeys);
    expect(row?.publicKey).toBe(publicKey);
    const privateKey = new SecretCipher(secretsKey).decrypt(row?.privateKeyEncrypted ?? '', 'web_push_keys:1');
    expect(publicKeyOf(privateKey)).toBe(publicKey);
    expect(row?.privateKeyEncrypted).not.toContain(privateKey);
  });

  it('registers a browser for the person (201), and again refreshes it (200)', async () => {
    const { account, admin, token } = await ownAccount();
    const b = browser();
    const res = await h.app.inject({
      method: 'POST',
      url: registerUrl(account.id),
      headers: { authorization: `Bearer ${token}`, 'user-agent': 'Mozilla/5.0 Test' },
      payload: registration(b),
    });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json<{ data: WebPushSubscription }>().data;
    expect(created).toEqual({ id: expect.any(String) as string, endpoint: b.endpoint, created: { at: expect.any(String) as string } });
    expect(await rowsOf(b.endpoint)).toEqual([
      expect.objectContaining({ accountId: account.id, userId: admin.id, p256dh: b.keys.p256dh, auth: b.keys.auth, userAgent: 'Mozilla/5.0 Test', failures: 0 }),
    ]);

    // The browser renewed its keys; a failing count is forgotten.
    await h.database.db.update(webPushSubscriptions).set({ failures: 3 }).where(eq(webPushSubscriptions.id, created.id));
    const renewed = browserSubscription(b.endpoint);
    const again = await h.call('POST', registerUrl(account.id), token, registration(renewed));
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json<{ data: WebPushSubscription }>().data).toEqual(created);
    expect(await rowsOf(b.endpoint)).toEqual([expect.objectContaining({ id: created.id, p256dh: renewed.keys.p256dh, failures: 0, userAgent: 'lightMyRequest' })]);
  });

  it('lets every role register', async () => {
    for (const role of roles) {
      const b = browser();
      const res = await h.call('POST', registerUrl(fixtures.accountId), tokens[role], registration(b));
      expect(res.statusCode, `${role}: ${res.body}`).toBe(201);
      expect(await rowsOf(b.endpoint)).toEqual([expect.objectContaining({ userId: fixtures.users[role] })]);
    }
  });

  it('follows the browser: another person or another account registering it takes it over', async () => {
    const { account, token } = await ownAccount();
    const colleague = await createUser(h.database.db);
    await h.database.db.insert(accountMembers).values({ accountId: account.id, userId: colleague.id, role: 'Sender' });
    const b = browser();
    expect((await h.call('POST', registerUrl(account.id), token, registration(b))).statusCode).toBe(201);
    expect((await h.call('POST', registerUrl(account.id), h.tokenFor(colleague.id), registration(b))).statusCode).toBe(200);
    expect(await rowsOf(b.endpoint)).toEqual([expect.objectContaining({ accountId: account.id, userId: colleague.id })]);

    // The colleague chose another account in this browser: the first account's registration goes.
    const second = await ownAccount();
    await h.database.db.insert(accountMembers).values({ accountId: second.account.id, userId: colleague.id, role: 'ReadOnly' });
    expect((await h.call('POST', registerUrl(second.account.id), h.tokenFor(colleague.id), registration(b))).statusCode).toBe(201);
    expect(await rowsOf(b.endpoint)).toEqual([expect.objectContaining({ accountId: second.account.id, userId: colleague.id })]);
  });

  it("unregisters the person's own browser only, answering 204 either way", async () => {
    const { account, admin, token } = await ownAccount();
    const colleague = await createUser(h.database.db);
    await h.database.db.insert(accountMembers).values({ accountId: account.id, userId: colleague.id, role: 'Sender' });
    const b = browser();
    await h.call('POST', registerUrl(account.id), token, registration(b));
    const byOther = await h.call('DELETE', registerUrl(account.id), h.tokenFor(colleague.id), { endpoint: b.endpoint });
    expect(byOther.statusCode).toBe(204);
    expect(await rowsOf(b.endpoint)).toEqual([expect.objectContaining({ userId: admin.id })]);
    expect((await h.call('DELETE', registerUrl(account.id), token, { endpoint: b.endpoint })).statusCode).toBe(204);
    expect(await rowsOf(b.endpoint)).toEqual([]);
    expect((await h.call('DELETE', registerUrl(account.id), token, { endpoint: b.endpoint })).statusCode).toBe(204);
    const bad = await h.call('DELETE', registerUrl(account.id), token, { endpoint: '' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: { code: 'validation_failed', message: 'endpoint: Required' } });
  });

  it('refuses bad input with a clear message and stores nothing', async () => {
    const { account, token } = await ownAccount();
    const b = browser();
    const cases: [object, string][] = [
      [{ subscription: registration(b).subscription }, 'type: Must be webpush'],
      [{ ...registration(b), subscription: { ...registration(b).subscription, endpoint: 'http://push.example.test/1' } }, `subscription.endpoint: ${WEB_PUSH_ENDPOINT_MESSAGE}`],
      [{ ...registration(b), subscription: { endpoint: b.endpoint, keys: { ...b.keys, auth: 'abc' } } }, `subscription.keys.auth: ${WEB_PUSH_AUTH_MESSAGE}`],
      [{ type: 'webpush' }, 'subscription: Required'],
    ];
    for (const [body, message] of cases) {
      const res = await h.call('POST', registerUrl(account.id), token, body);
      expect(res.statusCode, message).toBe(400);
      expect(res.json()).toEqual({ error: { code: 'validation_failed', message } });
    }
    expect(await rowsOf(b.endpoint)).toEqual([]);
    expect(await rowsOf('http://push.example.test/1')).toEqual([]);
  });

  it('refuses API credentials (403) before judging the body, and answers 404 for an account not ours', async () => {
    const { account, token } = await ownAccount();
    const clientId = `pk_${randomUUID()}`;
    const client = h.authenticator.add({ userId: clientId, clientId, accountIds: [account.id] });
    const b = browser();
    for (const [method, url, body] of [
      ['GET', settingsUrl(account.id), undefined],
      ['POST', registerUrl(account.id), registration(b)],
      ['POST', registerUrl(account.id), {}],
      ['DELETE', registerUrl(account.id), { endpoint: b.endpoint }],
    ] as const) {
      const res = await h.call(method, url, client, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json()).toEqual({ error: { code: 'forbidden', message: WEB_PUSH_API_CLIENTS_MESSAGE } });
    }
    expect(await rowsOf(b.endpoint)).toEqual([]);

    const other = await ownAccount();
    for (const [method, url, body] of [
      ['GET', settingsUrl(other.account.id), undefined],
      ['POST', registerUrl(other.account.id), registration(b)],
      ['DELETE', registerUrl(other.account.id), { endpoint: b.endpoint }],
    ] as const) {
      const res = await h.call(method, url, token, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect(await rowsOf(b.endpoint)).toEqual([]);
    expect((await h.call('POST', registerUrl(account.id), undefined, registration(b))).statusCode).toBe(401);
  });
});

describe.each(testDatabaseKinds)('web push routes without a secrets key (PostgreSQL without SECRETS_KEY) on %s', (kind) => {
  // DATABASE_URL only shapes the config (no key file on PostgreSQL); the harness opens its own database.
  const { h, ownAccount } = useRouteHarness(kind, { env: { DATABASE_URL: 'postgres://unused@127.0.0.1:1/none' } });

  it('offers no key and refuses registrations, saying why', async () => {
    const { account, token } = await ownAccount();
    expect((await h.call('GET', settingsUrl(account.id), token)).json()).toEqual({ data: { publicKey: null } });
    const b = browser();
    const res = await h.call('POST', registerUrl(account.id), token, registration(b));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: { code: 'conflict', message: WEB_PUSH_UNAVAILABLE_MESSAGE } });
    expect(await h.database.db.select().from(webPushSubscriptions).where(eq(webPushSubscriptions.endpoint, b.endpoint))).toEqual([]);
    expect(await h.database.db.select().from(webPushKeys)).toEqual([]);
  });
});
