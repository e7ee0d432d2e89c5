import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ACTIVECAMPAIGN_URL_MESSAGE, INTEGRATION_CREDENTIALS_REFUSED_MESSAGE, INTEGRATION_SYNC_RUNNING_MESSAGE, integrationKinds, type Integration, type IntegrationSync, type Role } from '@parley/shared';
import { eventSubscriptions, integrations } from '../../../platform/db/schema/index.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { AC_API_URL, startIntegrationHarness, type IntegrationHarness } from '../test/integrationHarness.js';

const base = (accountId: string, kind = 'activecampaign'): string => `/v1/accounts/${accountId}/integrations/${kind}`;

describe.each(testDatabaseKinds)('integration routes (%s)', (kind) => {
  let h: IntegrationHarness;
  beforeAll(async () => {
    h = await startIntegrationHarness(kind);
  });
  afterAll(async () => {
    await h.close();
  });

  const connect = async (accountId: string, token: string, body: object = { apiUrl: AC_API_URL, apiKey: h.peer.apiKey }) => h.call('POST', `${base(accountId)}/connect`, token, body);

  it('lists the thirteen integrations, those with a connector or a page elsewhere available, none connected', async () => {
    const { accountId, tokens } = await h.account();
    const res = await h.call('GET', `/v1/accounts/${accountId}/integrations`, tokens.ReadOnly);
    expect(res.statusCode).toBe(200);
    const list = res.json<{ data: Integration[] }>().data;
    expect(list.map((i) => i.integration)).toEqual([...integrationKinds]);
    expect(list.filter((i) => i.available).map((i) => i.integration)).toEqual(['activecampaign', 'aircall', 'callrail', 'cradle', 'email', 'googlecalendar', 'hubspot', 'intercom', 'pipedrive', 'slack', 'twilio', 'webhooks', 'zapier']);
    expect(list.every((i) => i.status === 'notConnected')).toBe(true);
    const calendar = await h.call('GET', base(accountId, 'googlecalendar'), tokens.Sender);
    expect(calendar.json()).toMatchObject({ success: true, data: { integration: 'googlecalendar', available: true, status: 'notConnected' } });
    expect((await h.call('GET', base(accountId, 'nosuch'), tokens.Sender)).statusCode).toBe(400);
    expect((await h.call('POST', `${base(accountId, 'googlecalendar')}/synchronize`, tokens.Administrator)).statusCode).toBe(409);
  });

  it('shows Webhooks connected while the account has an enabled webhook endpoint', async () => {
    const { accountId, tokens } = await h.account();
    const webhooks = async () => (await h.call('GET', base(accountId, 'webhooks'), tokens.ReadOnly)).json<{ data: Integration }>().data;
    expect(await webhooks()).toMatchObject({ integration: 'webhooks', available: true, status: 'notConnected' });
    const email = await h.call('POST', `/v1/accounts/${accountId}/notifications`, tokens.Administrator, { type: 'email', destination: 'desk@example.com', eventTypes: ['message-received'] });
    expect(email.statusCode).toBe(201);
    expect((await webhooks()).status).toBe('notConnected');
    const hook = await h.call('POST', `/v1/accounts/${accountId}/notifications`, tokens.Administrator, { type: 'webhook', destination: 'https://hooks.example.com/parley', eventTypes: ['message-received'] });
    expect(hook.statusCode).toBe(201);
    expect((await webhooks()).status).toBe('connected');
    const id = hook.json<{ data: { id: string } }>().data.id;
    const off = await h.call('PUT', `/v1/accounts/${accountId}/notifications/${id}`, tokens.Administrator, { type: 'webhook', destination: 'https://hooks.example.com/parley', eventTypes: ['message-received'], disabled: true });
    expect(off.statusCode).toBe(200);
    expect((await webhooks()).status).toBe('notConnected');
    const other = await h.account();
    expect((await h.call('GET', base(other.accountId, 'webhooks'), other.tokens.ReadOnly)).json<{ data: Integration }>().data.status).toBe('notConnected');
  });

  it("shows Zapier connected while a webhook goes to Zapier's hooks host", async () => {
    const { accountId, tokens } = await h.account();
    const zapier = async () => (await h.call('GET', base(accountId, 'zapier'), tokens.ReadOnly)).json<{ data: Integration }>().data;
    const subscribe = (url: string) => h.call('POST', `/v1/accounts/${accountId}/webhooks`, tokens.Administrator, { url, eventTypes: ['contact-created'] });
    expect((await subscribe('https://hooks.example.com/zapier')).statusCode).toBe(200);
    expect(await zapier()).toMatchObject({ integration: 'zapier', available: true, status: 'notConnected' });
    expect((await subscribe('https://hooks.zapier.com/hooks/standard/1/abc')).statusCode).toBe(200);
    expect((await zapier()).status).toBe('connected');
    expect((await h.call('DELETE', `/v1/accounts/${accountId}/webhooks/${encodeURIComponent('https://hooks.zapier.com/hooks/standard/1/abc')}`, tokens.Administrator)).statusCode).toBe(204);
    expect((await zapier()).status).toBe('notConnected');
  });

  it('refuses a bad API URL and a key the provider refuses, and keeps nothing', async () => {
    const { accountId, tokens } = await h.account();
    for (const apiUrl of ['http://acme.api-us1.com', 'https://acme.example.com', 'https://api-us1.com.evil.test', 'not a url']) {
      const res = await connect(accountId, tokens.Administrator, { apiUrl, apiKey: 'k' });
      expect(res.statusCode, apiUrl).toBe(400);
      expect(res.json<{ error: { message: string } }>().error.message).toBe(`apiUrl: ${ACTIVECAMPAIGN_URL_MESSAGE}`);
    }
    const missing = await connect(accountId, tokens.Administrator, { apiUrl: AC_API_URL });
    expect(missing.json<{ error: { message: string } }>().error.message).toBe('apiKey: Invalid input: expected string, received undefined');
    const extra = await connect(accountId, tokens.Administrator, { apiUrl: AC_API_URL, apiKey: 'k', other: 1 });
    expect(extra.statusCode).toBe(400);
    const wrongKey = await connect(accountId, tokens.Administrator, { apiUrl: AC_API_URL, apiKey: 'wrong' });
    expect(wrongKey.statusCode).toBe(400);
    expect(wrongKey.json<{ error: { message: string } }>().error.message).toBe(INTEGRATION_CREDENTIALS_REFUSED_MESSAGE);
    expect(await h.database.db.select().from(integrations).where(eq(integrations.accountId, accountId))).toEqual([]);
  });

  it('connects with a good key, keeps it encrypted, saves changed properties, syncs once at a time, disconnects', async () => {
    const { accountId, tokens } = await h.account();
    const res = await connect(accountId, tokens.Administrator);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, data: { status: 'connected', connection: { apiUrl: AC_API_URL }, properties: { importTag: '', recordMessages: true } } });
    expect(res.body).not.toContain(h.peer.apiKey);
    const [row] = await h.database.db.select().from(integrations).where(eq(integrations.accountId, accountId));
    expect(row?.credentials.startsWith('v1.')).toBe(true);
    expect(row?.credentials).not.toContain(h.peer.apiKey);
    expect(await h.database.db.select().from(eventSubscriptions).where(eq(eventSubscriptions.accountId, accountId))).toEqual([
      { accountId, type: 'messageSent', subscriber: 'integrations' },
      { accountId, type: 'contactCreated', subscriber: 'integrations' },
      { accountId, type: 'conversationClosed', subscriber: 'integrations' },
    ]);

    const props = `${base(accountId)}/properties`;
    expect((await h.call('PUT', props, tokens.Administrator, {})).statusCode).toBe(400);
    const unknown = await h.call('PUT', props, tokens.Administrator, { colour: 'red' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json<{ error: { message: string } }>().error.message).toContain('colour');
    expect((await h.call('PUT', props, tokens.Administrator, { importTag: 'a,b' })).statusCode).toBe(400);
    const saved = await h.call('PUT', props, tokens.Administrator, { importTag: 'From AC' });
    expect(saved.json()).toMatchObject({ success: true, data: { properties: { importTag: 'From AC', recordMessages: true } } });
    const saved2 = await h.call('PUT', props, tokens.Administrator, { recordMessages: false });
    expect(saved2.json()).toMatchObject({ data: { properties: { importTag: 'From AC', recordMessages: false } } });

    const sync = await h.call('POST', `${base(accountId)}/synchronize`, tokens.Administrator);
    expect(sync.statusCode).toBe(200);
    const started = sync.json<{ success: true; data: IntegrationSync }>().data;
    expect(started).toMatchObject({ kind: 'contacts', status: 'queued', created: 0 });
    expect((await h.queued('integrations.sync')).some((j) => j.data.syncId === started.id)).toBe(true);
    const again = await h.call('POST', `${base(accountId)}/synchronizetags`, tokens.Administrator);
    expect(again.statusCode).toBe(409);
    expect(again.json<{ error: { message: string } }>().error.message).toBe(INTEGRATION_SYNC_RUNNING_MESSAGE);
    const read = await h.call('GET', base(accountId), tokens.ReadOnly);
    expect(read.json<{ data: Integration }>().data.syncs.contacts).toMatchObject({ id: started.id, status: 'queued' });

    const gone = await h.call('DELETE', `${base(accountId)}/disconnect`, tokens.Administrator);
    expect(gone.json()).toMatchObject({ success: true, data: { status: 'notConnected' } });
    expect(await h.database.db.select().from(integrations).where(eq(integrations.accountId, accountId))).toEqual([]);
    expect(await h.database.db.select().from(eventSubscriptions).where(eq(eventSubscriptions.accountId, accountId))).toEqual([]);
    expect((await h.call('DELETE', `${base(accountId)}/disconnect`, tokens.Administrator)).statusCode).toBe(409);
    expect((await h.call('POST', `${base(accountId)}/synchronize`, tokens.Administrator)).statusCode).toBe(409);
  });

  it('lets only administrators change, everyone read, and answers 404 to another account', async () => {
    const { accountId, tokens } = await h.account();
    const other = await h.account();
    expect((await connect(accountId, tokens.Administrator)).statusCode).toBe(200);
    const writes: [string, string, object | undefined][] = [
      ['POST', `${base(accountId)}/connect`, { apiUrl: AC_API_URL, apiKey: h.peer.apiKey }],
      ['PUT', `${base(accountId)}/properties`, { importTag: 'x' }],
      ['POST', `${base(accountId)}/synchronize`, undefined],
      ['POST', `${base(accountId)}/synchronizetags`, undefined],
      ['GET', `${base(accountId, 'hubspot')}/oauth/start`, undefined],
      ['DELETE', `${base(accountId)}/disconnect`, undefined],
    ];
    for (const role of ['CampaignManager', 'Sender', 'ReadOnly'] as Role[]) {
      expect((await h.call('GET', base(accountId), tokens[role])).statusCode, role).toBe(200);
      for (const [method, url, body] of writes) {
        expect((await h.call(method as 'GET', url, tokens[role], body)).statusCode, `${role} ${method} ${url}`).toBe(403);
      }
    }
    for (const [method, url, body] of [['GET', base(accountId), undefined] as const, ...writes]) {
      expect((await h.call(method as 'GET', url, other.tokens.Administrator, body)).statusCode, `other ${method} ${url}`).toBe(404);
    }
    // Still connected: nothing above changed it.
    expect((await h.call('GET', base(accountId), tokens.ReadOnly)).json()).toMatchObject({ data: { status: 'connected', properties: { importTag: '' } } });
  });

  it('answers OAuth starts only for OAuth kinds with a connector, and a forged callback goes back with an error', async () => {
    const { accountId, tokens } = await h.account();
    expect((await h.call('GET', `${base(accountId)}/oauth/start`, tokens.Administrator)).statusCode).toBe(409);
    // HubSpot's app is not configured here.
    const unconfigured = await h.call('GET', `${base(accountId, 'hubspot')}/oauth/start`, tokens.Administrator);
    expect(unconfigured.statusCode).toBe(409);
    expect(unconfigured.json()).toMatchObject({ error: { message: 'HubSpot is not configured on this server' } });
    const callback = await h.app.inject({ method: 'GET', url: '/v1/integrations/googlecalendar/oauth/callback?code=x&state=forged' });
    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).toBe(`http://parley.test/integrations/googlecalendar?error=${encodeURIComponent('The authorization expired or was not asked for here; connect again')}`);
  });
});
