import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { Integration, IntegrationSync } from '@parley/shared';
import { contacts, integrationActivities, integrationContacts, messages } from '../../../platform/db/schema/index.js';
import { OutboxDispatcher } from '../../../platform/events/outboxDispatcher.js';
import { publishEvent } from '../../../platform/events/outbox.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { silentLogger } from '../../../test/logger.js';
import { uniqueTestNumber } from '../../../test/phoneNumbers.js';
import { sendingAccount, uniqueSendingTestNumber } from '../../../test/sendingFixtures.js';
import { createContact } from '../../contacts/index.js';
import { IntegrationActivitySubscriber } from '../activitySubscriber.js';
import { OAUTH_STATE_INVALID_MESSAGE } from '../oauthCommands.js';
import { HUBSPOT_ACTION_UNSIGNED_MESSAGE } from '../routes/hubspotActions.js';
import { startIntegrationHarness, type IntegrationHarness } from '../test/integrationHarness.js';
import { HubSpotPeer } from './test/hubspotPeer.js';

/*
 * The HubSpot connector in the framework, against the local HubSpot: one account goes through connect, sync,
 * messages, pushes, the workflow action and disconnect, in that order.
 */

const peer = new HubSpotPeer();
const ACTION_URL = 'http://parley.test/v1/integrations/hubspot/actions/send';

describe.each(testDatabaseKinds)('HubSpot (%s)', (kind) => {
  let h: IntegrationHarness;
  let accountId = '';
  let token = '';
  beforeAll(async () => {
    if (peer.base === '') await peer.start();
    h = await startIntegrationHarness(kind, {
      HUBSPOT_CLIENT_ID: peer.clientId,
      HUBSPOT_CLIENT_SECRET: peer.clientSecret,
      HUBSPOT_API_BASE_URL: peer.base,
      HUBSPOT_AUTH_URL: `${peer.base}/oauth/authorize`,
    });
    const account = await sendingAccount(h.database.db);
    accountId = account.accountId;
    token = h.tokenFor(account.adminId);
    peer.contacts.length = 0;
    peer.lists.length = 0;
    peer.communications.length = 0;
  });
  afterAll(async () => {
    await h.close();
    if (kind === testDatabaseKinds[testDatabaseKinds.length - 1]) await peer.stop();
  });

  const url = (path = ''): string => `/v1/accounts/${accountId}/integrations/hubspot${path}`;
  const page = async (): Promise<Integration> => (await h.call('GET', url(), token)).json<{ data: Integration }>().data;
  const callback = (query: string) => h.app.inject({ method: 'GET', url: `/v1/integrations/hubspot/oauth/callback?${query}` });
  const contactsOf = () => h.database.db.select().from(contacts).where(eq(contacts.accountId, accountId));
  const linksOf = () => h.database.db.select().from(integrationContacts).where(and(eq(integrationContacts.accountId, accountId), eq(integrationContacts.kind, 'hubspot')));

  async function synchronize(path: string): Promise<IntegrationSync> {
    const res = await h.call('POST', url(path), token);
    expect(res.statusCode, res.body).toBe(200);
    const { id } = res.json<{ data: IntegrationSync }>().data;
    await h.run(h.syncJob, { syncId: id });
    const integration = await page();
    const sync = [integration.syncs.contacts, integration.syncs.tags].find((s) => s?.id === id);
    if (sync === undefined) throw new Error('sync not on the page');
    return sync;
  }

  /** Delivers the outbox's pending events to the integrations' subscriber, then runs the activities job. */
  async function dispatchAndRecord(): Promise<void> {
    const subscriber = new IntegrationActivitySubscriber(h.deps.jobs, h.activityJob);
    const dispatcher = new OutboxDispatcher(h.database, [subscriber], silentLogger());
    while (await dispatcher.dispatchOnce());
    await h.run(h.activityJob, {});
  }

  it('connects through HubSpot: a tampered state is refused, the portal is the connection', async () => {
    const start = await h.call('GET', url('/oauth/start'), token);
    expect(start.statusCode, start.body).toBe(200);
    const authorize = new URL(start.json<{ data: { url: string } }>().data.url);
    expect(authorize.origin + authorize.pathname).toBe(`${peer.base}/oauth/authorize`);
    expect(authorize.searchParams.get('redirect_uri')).toBe('http://parley.test/v1/integrations/hubspot/oauth/callback');
    // The user approves on HubSpot's page, which links back with a code and the state.
    const html = await (await fetch(authorize)).text();
    const back = new URL((/href="([^"]+)"/.exec(html)?.[1] ?? '').replaceAll('&amp;', '&'));
    const state = back.searchParams.get('state') ?? '';
    const code = back.searchParams.get('code') ?? '';

    const tampered = await callback(new URLSearchParams({ code, state: `${state}x` }).toString());
    expect(tampered.headers.location).toBe(`http://parley.test/integrations/hubspot?error=${encodeURIComponent(OAUTH_STATE_INVALID_MESSAGE)}`);
    const good = await callback(back.searchParams.toString());
    expect(good.headers.location).toBe('http://parley.test/integrations/hubspot');
    expect(await page()).toMatchObject({ status: 'connected', connection: { hubId: String(peer.hubId), hubDomain: peer.hubDomain }, properties: { mobileProperty: 'mobilephone,phone', pushContacts: false } });
  });

  it('syncs contacts page after page, waiting out a 429, by the mobile property option; lists become tags', async () => {
    const mobiles = Array.from({ length: 120 }, () => uniqueTestNumber());
    mobiles.forEach((mobile, i) => peer.addContact({ firstname: `Hub${String(i)}`, lastname: 'Spot', ...(i % 2 === 0 ? { mobilephone: mobile } : { phone: mobile }) }));
    peer.addContact({ firstname: 'Nomobile', email: 'no@hub.example' });
    const vip = peer.contacts.slice(0, 3).map((c) => c.id);
    peer.addList('VIP', vip);
    peer.addList('Companies', ['1'], '0-2');
    peer.rateLimitOnce(7);

    const put = await h.call('PUT', url('/properties'), token, { importTag: 'hubspot' });
    expect(put.statusCode, put.body).toBe(200);
    const res = await h.call('POST', url('/synchronize'), token);
    const { id } = res.json<{ data: IntegrationSync }>().data;
    await h.run(h.syncJob, { syncId: id });
    expect((await page()).syncs.contacts).toMatchObject({ status: 'waiting' });
    await h.run(h.syncJob, { syncId: id });
    expect((await page()).syncs.contacts).toMatchObject({ status: 'completed', created: 120, skipped: 1, progress: { done: 121 } });
    expect((await contactsOf()).every((c) => c.tags.includes('hubspot'))).toBe(true);

    const tags = await synchronize('/synchronizetags');
    expect(tags.status).toBe('completed');
    const tagged = (await contactsOf()).filter((c) => c.tags.includes('VIP'));
    expect(tagged.map((c) => c.firstName).sort()).toEqual(['Hub0', 'Hub1', 'Hub2']);
  });

  it('logs a message sent as an SMS communication on the HubSpot contact', async () => {
    const hub0 = (await contactsOf()).find((c) => c.firstName === 'Hub0');
    await publishEvent(h.database.db, {
      type: 'messageSent',
      accountId,
      groupId: null,
      data: { message: { id: crypto.randomUUID(), contact: { id: hub0?.id ?? '' }, message: 'See you at 5', direction: 'outbound', created: { at: '2026-12-02T10:00:00.000Z' } } },
    });
    await dispatchAndRecord();
    expect(peer.communications).toHaveLength(1);
    expect(peer.communications[0]).toMatchObject({
      properties: { hs_communication_channel_type: 'SMS', hs_communication_body: `SMS sent to Hub0 Spot (${hub0?.mobileNumber ?? ''}):\nSee you at 5` },
      associations: [{ to: { id: peer.contacts[0]?.id } }],
    });
  });

  it('pushes a contact created in Parley when asked, links it, and a later sync creates no second one', async () => {
    const mobile = uniqueTestNumber();
    await createContact(h.database.db, accountId, { firstName: 'Before', lastName: '', mobile: { number: uniqueTestNumber(), country: undefined }, tags: [], attributes: {} });
    await dispatchAndRecord();
    const held = peer.contacts.length;
    expect(held).toBe(121);

    await h.call('PUT', url('/properties'), token, { pushContacts: true, mobileProperty: 'phone' });
    const pushed = await createContact(h.database.db, accountId, { firstName: 'Pia', lastName: 'Push', email: 'pia@parley.example', mobile: { number: mobile, country: undefined }, tags: [], attributes: {} });
    await dispatchAndRecord();
    expect(peer.contacts).toHaveLength(held + 1);
    const created = peer.contacts.at(-1);
    expect(created?.properties).toMatchObject({ phone: pushed.contact.mobileNumber, firstname: 'Pia', lastname: 'Push', email: 'pia@parley.example' });
    expect((await linksOf()).find((l) => l.contactId === pushed.contact.id)?.externalId).toBe(created?.id);
    const rows = await h.database.db.select().from(integrationActivities).where(eq(integrationActivities.contactId, pushed.contact.id));
    expect(rows.map((r) => r.status)).toEqual(['recorded']);

    const before = (await contactsOf()).length;
    await h.call('PUT', url('/properties'), token, { mobileProperty: 'mobilephone,phone' });
    const again = await synchronize('/synchronize');
    expect(again).toMatchObject({ status: 'completed', created: 0 });
    expect((await contactsOf()).length).toBe(before);
    // Contacts the sync itself created are not pushed back.
    await dispatchAndRecord();
    expect(peer.contacts).toHaveLength(held + 1);
  });

  it('sends from a signed workflow action; a forged or unsigned one is refused; a refused send answers FAIL_CONTINUE', async () => {
    const contact = peer.addContact({ firstname: 'Wanda', lastname: 'Flow', mobilephone: uniqueSendingTestNumber() });
    const call = (body: string, headers: Record<string, string>) => h.app.inject({ method: 'POST', url: '/v1/integrations/hubspot/actions/send', headers, payload: body });
    const body = JSON.stringify(peer.workflowActionBody(contact.id, { message: 'Your table is ready' }));

    const signed = await call(body, peer.signedHeaders('POST', ACTION_URL, body));
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json()).toMatchObject({ outputFields: { hs_execution_state: 'SUCCESS' } });
    const sent = await h.database.db.select().from(messages).where(eq(messages.accountId, accountId));
    expect(sent.map((m) => m.body)).toContain('Your table is ready');
    const wanda = (await contactsOf()).find((c) => c.firstName === 'Wanda');
    expect((await linksOf()).find((l) => l.contactId === wanda?.id)?.externalId).toBe(contact.id);

    const forged = await call(body, peer.signedHeaders('POST', ACTION_URL, body, Date.now(), 'not-the-secret'));
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toMatchObject({ error: { code: 'unauthorized', message: HUBSPOT_ACTION_UNSIGNED_MESSAGE } });
    expect((await call(body, { 'content-type': 'application/json' })).statusCode).toBe(401);
    // A replay: signed as HubSpot signs, but six minutes ago.
    expect((await call(body, peer.signedHeaders('POST', ACTION_URL, body, Date.now() - 6 * 60_000))).statusCode).toBe(401);

    const noMobile = peer.addContact({ firstname: 'Nobody' });
    const refusedBody = JSON.stringify(peer.workflowActionBody(noMobile.id, { message: 'Hello' }));
    const refused = await call(refusedBody, peer.signedHeaders('POST', ACTION_URL, refusedBody));
    expect(refused.json()).toEqual({ outputFields: { hs_execution_state: 'FAIL_CONTINUE', errorCode: 'NO_MOBILE', errorMessage: 'The HubSpot contact has no mobile number' } });
    const invalid = peer.addContact({ firstname: 'Invalid', mobilephone: '12' });
    const invalidBody = JSON.stringify(peer.workflowActionBody(invalid.id, { message: 'Hello' }));
    const notSent = await call(invalidBody, peer.signedHeaders('POST', ACTION_URL, invalidBody));
    expect(notSent.json()).toMatchObject({ outputFields: { hs_execution_state: 'FAIL_CONTINUE', errorCode: 'SEND_REFUSED' } });
  });

  it('disconnects: the refresh token is revoked at HubSpot', async () => {
    const refreshTokens = peer.tokenRequests.map((form) => form.get('refresh_token')).filter((t) => t !== null);
    const res = await h.call('DELETE', url('/disconnect'), token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ data: Integration }>().data.status).toBe('notConnected');
    expect(await linksOf()).toEqual([]);
    for (const refreshToken of refreshTokens) expect(peer.knowsRefreshToken(refreshToken)).toBe(false);
  });
});
