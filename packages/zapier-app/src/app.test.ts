import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppTester } from 'zapier-platform-core';
import { registerApiClient } from '../../../apps/server/src/modules/identity/index.js';
import { testDatabaseKinds } from '../../../apps/server/src/test/databases.js';
import { startIssuerServer } from '../../../apps/server/src/test/identity.js';
import { addContact, sendingAccount, uniqueSendingTestNumber, type SendingAccount } from '../../../apps/server/src/test/sendingFixtures.js';
import type { TestServer } from '../../../apps/server/src/test/server.js';
import { app } from './app.js';
import { authentication } from './authentication.js';
import { addToList } from './creates/addToList.js';
import { sendMessage } from './creates/sendMessage.js';
import { upsertContact } from './creates/upsertContact.js';
import { SERVER_URL_MESSAGE } from './parleyApi.js';
import { listDropdown, phoneNumberDropdown } from './triggers/dropdowns.js';
import { contactCreated, messageReceived } from './triggers/eventTriggers.js';
import type { HookEvent, Subscription } from './triggers/hookTrigger.js';
import { HookCatcher, type Caught } from './test/hookCatcher.js';

const appTester = createAppTester(app);

async function until<T>(probe: () => T | null | Promise<T | null>, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== null) return found;
    if (Date.now() > deadline) throw new Error(`not in time: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

it("passes the platform's schema validation, as `zapier validate` runs it", () => {
  const { validateApp } = createRequire(import.meta.url)('zapier-platform-core/src/tools/schema') as { validateApp: (definition: object) => unknown[] };
  expect(validateApp(app)).toEqual([]);
});

describe.each(testDatabaseKinds)('the Zapier app against a running Parley on %s', (kind) => {
  let server: TestServer;
  let catcher: HookCatcher;
  let account: SendingAccount;
  const client = { clientId: crypto.randomUUID(), secret: `${crypto.randomUUID()}${crypto.randomUUID()}` };
  let authData: Record<string, string> = {};

  /** Calls the API as the app's connection does, for what a test checks on the side; the caller names the answer's shape. */
  const api = async (path: string, init: { method?: string; body?: object } = {}): Promise<{ status: number; body: unknown }> => {
    const res = await fetch(`${server.baseUrl}/v1/accounts/${account.accountId}${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${authData.sessionKey ?? ''}`, ...(init.body ? { 'content-type': 'application/json' } : {}) },
      ...(init.body ? { body: JSON.stringify(init.body) } : {}),
    });
    return { status: res.status, body: res.status === 204 ? null : await res.json() };
  };

  const deliveryFor = (caught: Caught, subscribeData: Subscription) => ({
    authData,
    subscribeData,
    rawRequest: { method: 'POST' as const, headers: caught.headers, content: caught.content },
    cleanedRequest: JSON.parse(caught.content) as unknown,
  });

  beforeAll(async () => {
    server = await startIssuerServer(kind, {
      SERVICES: 'web,worker',
      SIMULATOR: 'true',
      SECRETS_KEY: crypto.randomBytes(32).toString('base64'),
      // The hook catcher stands in for Zapier on loopback, which webhooks reach only when named here.
      FETCH_ALLOWED_HOSTS: '127.0.0.1',
    });
    catcher = new HookCatcher();
    await catcher.start();
    account = await sendingAccount(server.database.db, { balance: '10' });
    await registerApiClient(server.database.db, { ...client, accountId: account.accountId });
    authData = { serverUrl: server.baseUrl, clientId: client.clientId, clientSecret: client.secret, accountId: account.accountId };
    const { sessionKey } = await appTester(authentication.sessionConfig.perform, { authData });
    authData.sessionKey = sessionKey;
  });
  afterAll(async () => {
    await catcher.stop();
    await server.stop();
  });

  it('connects with an API client, names the account, and refuses a wrong secret or a plain-HTTP URL', async () => {
    const tested = await appTester(authentication.test, { authData });
    expect(tested).toEqual({ id: account.accountId, name: `Sending ${account.adminId}` });
    expect(await appTester(authentication.connectionLabel, { authData, inputData: tested })).toBe(tested.name);

    await expect(appTester(authentication.sessionConfig.perform, { authData: { ...authData, clientSecret: 'x'.repeat(64) } })).rejects.toThrow('Parley refused the client ID or secret');
    await expect(appTester(authentication.test, { authData: { ...authData, sessionKey: 'not-a-token' } })).rejects.toMatchObject({ name: 'RefreshAuthError' });
    await expect(appTester(authentication.test, { authData: { ...authData, serverUrl: 'http://parley.example.com' } })).rejects.toThrow(SERVER_URL_MESSAGE);
  });

  it('subscribes a trigger, gets a real event as Zapier would, checks its signature, and unsubscribes', async () => {
    const targetUrl = `${catcher.base}/hooks/contact-created`;
    const subscribeData = await appTester(contactCreated.operation.performSubscribe, { authData, targetUrl });
    expect(subscribeData).toMatchObject({ url: targetUrl, eventTypes: ['contact-created'] });
    expect(subscribeData.secret).toMatch(/^whsec_/);

    const mobile = uniqueSendingTestNumber();
    await appTester(upsertContact.operation.perform, { authData, inputData: { mobile, firstName: 'Grace' } });
    const [caught] = await until(() => (catcher.at('/hooks/contact-created').length > 0 ? catcher.at('/hooks/contact-created') : null), 'the delivery');
    if (caught === undefined) throw new Error('nothing caught');
    const events: HookEvent[] = await appTester(contactCreated.operation.perform, deliveryFor(caught, subscribeData));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'contact-created', accountId: account.accountId, data: { contact: { firstName: 'Grace', mobile: { number: mobile } } } });
    expect(events[0]?.id).toMatch(/^evt_/);

    // An altered body, or the right body under another secret, is not Parley's.
    const altered = { ...caught, content: caught.content.replace('Grace', 'Mallory') };
    await expect(appTester(contactCreated.operation.perform, deliveryFor(altered, subscribeData))).rejects.toThrow('Not a delivery from Parley');
    const otherSecret = { ...subscribeData, secret: `whsec_${crypto.randomBytes(32).toString('base64')}` };
    await expect(appTester(contactCreated.operation.perform, deliveryFor(caught, otherSecret))).rejects.toThrow('Not a delivery from Parley');

    const samples: HookEvent[] = await appTester(contactCreated.operation.performList, { authData });
    expect(samples[0]).toMatchObject({ type: 'contact-created', data: { contact: { mobile: { number: mobile } } } });

    await appTester(contactCreated.operation.performUnsubscribe, { authData, subscribeData });
    const body = (await api('/webhooks')).body as { data: { url: string }[] };
    expect(body.data.map((w) => w.url)).not.toContain(targetUrl);
  });

  it('triggers on an inbound message', async () => {
    const targetUrl = `${catcher.base}/hooks/message-received`;
    const subscribeData = await appTester(messageReceived.operation.performSubscribe, { authData, targetUrl });
    const contact = await addContact(server.database.db, account.accountId, { firstName: 'Ines' });
    const texted = await api(`/simulator/phones/${contact.mobileNumber.replace('+', '')}/messages`, { method: 'POST', body: { to: account.number, body: 'Is it ready?' } });
    expect(texted.status).toBe(201);
    const [caught] = await until(() => (catcher.at('/hooks/message-received').length > 0 ? catcher.at('/hooks/message-received') : null), 'the inbound delivery');
    if (caught === undefined) throw new Error('nothing caught');
    const events: HookEvent[] = await appTester(messageReceived.operation.perform, deliveryFor(caught, subscribeData));
    expect(events[0]).toMatchObject({ type: 'message-received', data: { message: { message: 'Is it ready?', outgoing: false, contact: { id: contact.id } } } });
    await appTester(messageReceived.operation.performUnsubscribe, { authData, subscribeData });
  });

  it('creates then updates a contact by mobile, sends it a message, adds it to a list, and fails with Parley’s message', async () => {
    const mobile = uniqueSendingTestNumber();
    const created = await appTester(upsertContact.operation.perform, { authData, inputData: { mobile, firstName: 'Alan', tags: ['lead'] } });
    expect(created).toMatchObject({ created: true, firstName: 'Alan', mobile: { number: mobile } });
    // The same number written nationally, with its country: the same contact, changed.
    const national = mobile.replace('+1', '');
    const updated = await appTester(upsertContact.operation.perform, { authData, inputData: { mobile: national, country: 'us', lastName: 'Turing' } });
    expect(updated).toMatchObject({ created: false, id: created.id, firstName: 'Alan', lastName: 'Turing' });

    const numbers = await appTester(phoneNumberDropdown.operation.perform, { authData });
    expect(numbers.map((n) => n.id)).toEqual([account.numberId]);
    const sent = await appTester(sendMessage.operation.perform, { authData, inputData: { to: mobile, text: 'Hello Alan, your order is ready', from: account.numberId } });
    const message = (await api(`/messages/${sent.id}`)).body as { data: { message: string; contact: { id: string }; outgoing: boolean } };
    expect(message.data).toMatchObject({ message: 'Hello Alan, your order is ready', outgoing: true, contact: { id: created.id } });

    const list = (await api('/lists', { method: 'POST', body: { name: `Zap ${mobile}` } })).body as { data: { id: string } };
    const lists = await appTester(listDropdown.operation.perform, { authData });
    expect(lists.map((l) => l.id)).toContain(list.data.id);
    const added = await appTester(addToList.operation.perform, { authData, inputData: { list: list.data.id, mobile } });
    expect(added).toMatchObject({ listId: list.data.id, contactId: created.id });
    const members = (await api(`/lists/${list.data.id}/contacts`)).body as { data: { contactId: string }[] };
    expect(members.data.map((m) => m.contactId)).toEqual([created.id]);

    const unknownList = crypto.randomUUID();
    const refusedList = (await api(`/lists/${unknownList}/contacts`, { method: 'POST', body: { contactIds: [created.id] } })).body as { error: { message: string } };
    expect(refusedList.error.message).not.toBe('');
    await expect(appTester(addToList.operation.perform, { authData, inputData: { list: unknownList, mobile } })).rejects.toThrow(refusedList.error.message);
    await expect(appTester(addToList.operation.perform, { authData, inputData: { list: list.data.id, mobile: '+12025550000' } })).rejects.toThrow('No contact has the number +12025550000');
    const refusedSend = (await api('/messages', { method: 'POST', body: { contacts: [{ mobile: { number: mobile } }], template: '' } })).body as { error: { message: string } };
    expect(refusedSend.error.message).not.toBe('');
    await expect(appTester(sendMessage.operation.perform, { authData, inputData: { to: mobile, text: '' } })).rejects.toThrow(refusedSend.error.message);
  });
});
