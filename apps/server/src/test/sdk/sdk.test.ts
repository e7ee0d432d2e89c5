import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allPages, clientCredentials, createParleyClient, requestToken, TokenError, verifyWebhook, WebhookVerificationError, type ParleyClient } from '@parley/sdk';
import { registerApiClient } from '../../modules/identity/index.js';
import { testDatabaseKinds } from '../databases.js';
import { startIssuerServer } from '../identity.js';
import { addContact, sendingAccount, uniqueSendingTestNumber, type SendingAccount } from '../sendingFixtures.js';
import type { TestServer } from '../server.js';

/*
 * The SDK (packages/sdk) as a client uses it, against a running Parley: a token for an API client, typed
 * calls, paging, and the check of a webhook's signature. The README's example is these steps.
 */

describe.each(testDatabaseKinds)('the SDK against Parley (%s)', (kind) => {
  let server: TestServer;
  let account: SendingAccount;
  let client: ParleyClient;
  const credentials = { clientId: randomUUID(), clientSecret: `${randomUUID()}${randomUUID()}` };

  beforeAll(async () => {
    server = await startIssuerServer(kind);
    account = await sendingAccount(server.database.db, { balance: '20' });
    await registerApiClient(server.database.db, { clientId: credentials.clientId, secret: credentials.clientSecret, accountId: account.accountId });
    client = createParleyClient({ baseUrl: server.baseUrl, token: clientCredentials({ baseUrl: server.baseUrl, ...credentials }) });
  });
  afterAll(async () => {
    await server.stop();
  });

  it('gets a token for an API client, and a clear error for a wrong secret', async () => {
    const token = await requestToken({ baseUrl: server.baseUrl, ...credentials });
    expect(token.accessToken).not.toBe('');
    expect(token.expiresIn).toBeGreaterThan(60);
    const refused = requestToken({ baseUrl: server.baseUrl, clientId: credentials.clientId, clientSecret: 'wrong' });
    await expect(refused).rejects.toBeInstanceOf(TokenError);
    await expect(refused).rejects.toMatchObject({ error: 'invalid_client', status: 401 });
  });

  it('sends a message to a new number and reads it back, typed', async () => {
    const number = uniqueSendingTestNumber();
    const sent = await client.POST('/v1/accounts/{acc}/messages', {
      params: { path: { acc: account.accountId } },
      body: { contacts: [{ mobile: { number, country: 'US' }, firstName: 'Sam' }], template: 'Hello from the SDK' },
    });
    expect(sent.error, JSON.stringify(sent.error)).toBeUndefined();
    const contacts = await client.GET('/v1/accounts/{acc}/contacts', { params: { path: { acc: account.accountId }, query: { q: 'Sam' } } });
    expect(contacts.data?.data.map((c) => c.firstName)).toEqual(['Sam']);
    const messages = await client.GET('/v1/accounts/{acc}/messages', { params: { path: { acc: account.accountId } } });
    expect(messages.data?.data.map((m) => m.message)).toContain('Hello from the SDK');

    const refused = await client.GET('/v1/accounts/{acc}/contacts/{id}', { params: { path: { acc: account.accountId, id: randomUUID() } } });
    expect(refused.response.status).toBe(404);
    expect(refused.error?.error.code).toBe('not_found');
  });

  it('pages through every contact', async () => {
    const paged = await sendingAccount(server.database.db);
    const other = { clientId: randomUUID(), clientSecret: `${randomUUID()}${randomUUID()}` };
    await registerApiClient(server.database.db, { clientId: other.clientId, secret: other.clientSecret, accountId: paged.accountId });
    const own = createParleyClient({ baseUrl: server.baseUrl, token: clientCredentials({ baseUrl: server.baseUrl, ...other }) });
    for (let i = 0; i < 23; i += 1) await addContact(server.database.db, paged.accountId, { firstName: `Page${String(i).padStart(2, '0')}` });
    const seen: string[] = [];
    const asked: string[] = [];
    for await (const contact of allPages(async (query) => {
      asked.push(query.after === undefined ? `offset ${String(query.offset)}` : 'after');
      const page = await own.GET('/v1/accounts/{acc}/contacts', { params: { path: { acc: paged.accountId }, query } });
      if (!page.data) throw new Error(JSON.stringify(page.error));
      return page.data;
    }, 10)) {
      seen.push(contact.firstName);
    }
    expect(seen).toHaveLength(23);
    expect(new Set(seen).size).toBe(23);
    // The first page by offset, the rest by the cursor each page names.
    expect(asked).toEqual(['offset 0', 'after', 'after']);
  });

  it("checks a webhook's signature with the secret its subscription answered", async () => {
    const made = await client.POST('/v1/accounts/{acc}/webhooks', {
      params: { path: { acc: account.accountId } },
      body: { url: 'https://hooks.example.com/parley', eventTypes: ['message-received'] },
    });
    const secret = made.data?.data.secret ?? '';
    expect(secret).toMatch(/^whsec_/);
    const body = JSON.stringify({ type: 'message-received', data: { message: 'hi' } });
    const id = `msg_${randomUUID()}`;
    const now = new Date();
    const headers = { 'Webhook-Id': id, 'Webhook-Timestamp': String(Math.floor(now.getTime() / 1000)), 'Webhook-Signature': new Webhook(secret).sign(id, now, body) };
    expect(verifyWebhook(secret, body, headers)).toEqual({ type: 'message-received', data: { message: 'hi' } });
    expect(() => verifyWebhook(secret, body.replace('hi', 'ho'), headers)).toThrow(WebhookVerificationError);
    const old = new Date(now.getTime() - 10 * 60_000);
    const stale = { ...headers, 'Webhook-Timestamp': String(Math.floor(old.getTime() / 1000)), 'Webhook-Signature': new Webhook(secret).sign(id, old, body) };
    expect(() => verifyWebhook(secret, body, stale)).toThrow(WebhookVerificationError);
  });
});
