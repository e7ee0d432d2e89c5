import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTEGRATION_CREDENTIALS_REFUSED_MESSAGE, type Integration, type IntegrationSync } from '@parley/shared';
import { calls, contacts, integrations, messages } from '../../../platform/db/schema/index.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { sendingAccount, uniqueSendingTestNumber, type SendingAccount } from '../../../test/sendingFixtures.js';
import { insertTemplate } from '../../../test/templates.js';
import { startIntegrationHarness, type IntegrationHarness } from '../test/integrationHarness.js';
import { callRailAccountNotReached } from './callRailConnector.js';
import { CALLRAIL_UNKNOWN_WEBHOOK, CALLRAIL_UNSIGNED_MESSAGE } from './callRailWebhook.js';
import { callRailWebhook, startCallRailPeer, type CallRailPeer, type PeerCall } from './test/callRailPeer.js';

const SIGNING_KEY = 'cr-company-signing-key';
let serial = 0;

describe.each(testDatabaseKinds)('CallRail (%s)', (kind) => {
  let peer: CallRailPeer;
  let h: IntegrationHarness;
  beforeAll(async () => {
    peer = await startCallRailPeer();
    h = await startIntegrationHarness(kind, { CALLRAIL_API_BASE_URL: peer.url });
  });
  afterAll(async () => {
    await h.close();
    await peer.close();
  });

  const url = (accountId: string, path = ''): string => `/v1/accounts/${accountId}/integrations/callrail${path}`;
  const accountIdAtCallRail = (): string => peer.accounts[0]?.id ?? '';

  async function connected(): Promise<{ account: SendingAccount; token: string; integration: Integration }> {
    const account = await sendingAccount(h.database.db);
    const token = h.tokenFor(account.adminId);
    const res = await h.call('POST', url(account.accountId, '/connect'), token, { apiKey: peer.apiKey, accountId: accountIdAtCallRail(), signingKey: SIGNING_KEY });
    expect(res.statusCode, res.body).toBe(200);
    return { account, token, integration: (await h.call('GET', url(account.accountId), token)).json<{ data: Integration }>().data };
  }

  const peerCall = (overrides: Partial<PeerCall> = {}): PeerCall => {
    serial += 1;
    return {
      id: `CAL${kind}${String(serial).padStart(6, '0')}`,
      answered: false,
      voicemail: false,
      direction: 'inbound',
      duration: 0,
      start_time: new Date(Date.now() - serial * 60_000).toISOString(),
      customer_phone_number: uniqueSendingTestNumber(),
      customer_name: 'Carla Caller',
      tracking_phone_number: '+14045550111',
      business_phone_number: '+14045550100',
      recording: null,
      source: 'Google Paid',
      campaign: 'Spring Sale',
      keywords: 'emergency plumber',
      ...overrides,
    };
  };

  const deliver = (token: string, body: string, headers: Record<string, string>) =>
    h.app.inject({ method: 'POST', url: `/v1/integrations/callrail/webhook/${token}`, headers, payload: body });

  it('connects with an API key that reaches the account, and refuses one that does not', async () => {
    const account = await sendingAccount(h.database.db);
    const token = h.tokenFor(account.adminId);
    const refused = await h.call('POST', url(account.accountId, '/connect'), token, { apiKey: 'wrong', accountId: accountIdAtCallRail(), signingKey: SIGNING_KEY });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ error: { message: string } }>().error.message).toBe(INTEGRATION_CREDENTIALS_REFUSED_MESSAGE);
    const elsewhere = await h.call('POST', url(account.accountId, '/connect'), token, { apiKey: peer.apiKey, accountId: 'ACCother', signingKey: SIGNING_KEY });
    expect(elsewhere.json<{ error: { message: string } }>().error.message).toBe(callRailAccountNotReached('ACCother'));
    const invalid = await h.call('POST', url(account.accountId, '/connect'), token, { apiKey: peer.apiKey, accountId: 'ACC 1', signingKey: '' });
    expect(invalid.statusCode).toBe(400);
    expect(await h.database.db.select().from(integrations).where(eq(integrations.accountId, account.accountId))).toEqual([]);

    const ok = await h.call('POST', url(account.accountId, '/connect'), token, { apiKey: peer.apiKey, accountId: accountIdAtCallRail(), signingKey: SIGNING_KEY });
    expect(ok.statusCode).toBe(200);
    const integration = (await h.call('GET', url(account.accountId), token)).json<{ data: Integration }>().data;
    expect(integration).toMatchObject({ status: 'connected', auth: 'apiKey', connection: { accountId: accountIdAtCallRail(), accountName: 'Acme Plumbing' } });
    expect(integration.connection?.webhookToken).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(JSON.stringify(integration)).not.toContain(SIGNING_KEY);
  });

  it('syncs recent calls page by page through a 429: callers become contacts, calls go into their conversations once', async () => {
    const { account, token } = await connected();
    peer.calls.length = 0;
    const repeat = uniqueSendingTestNumber();
    peer.calls.push(...Array.from({ length: 130 }, (_, i) => peerCall(i < 2 ? { customer_phone_number: repeat } : { answered: i % 2 === 0, duration: i })));
    peer.calls.push(peerCall({ start_time: '2020-01-01T10:00:00Z' }));
    peer.throttleNext('/v3/a/', 30, 1);

    const res = await h.call('POST', url(account.accountId, '/synchronize'), token);
    const { id } = res.json<{ data: IntegrationSync }>().data;
    await h.run(h.syncJob, { syncId: id });
    const syncOf = async () => (await h.call('GET', url(account.accountId), token)).json<{ data: Integration }>().data.syncs.contacts;
    expect(await syncOf()).toMatchObject({ status: 'waiting', created: 99 });
    await h.run(h.syncJob, { syncId: id });
    expect(await syncOf()).toMatchObject({ status: 'completed', created: 129 });
    expect(peer.requests.filter((r) => r.includes('/calls.json')).map((r) => new URL(r.split(' ')[1] ?? '', 'http://x').searchParams.get('page'))).toEqual(['1', '2', '2']);

    const rows = await h.database.db.select().from(calls).where(eq(calls.accountId, account.accountId));
    expect(rows).toHaveLength(130);
    expect(rows.filter((r) => r.status === 'answered')).toHaveLength(64);
    expect(rows.find((r) => r.fromNumber === repeat)).toMatchObject({ phoneNumberId: account.numberId, source: 'callrail', attributes: { source: 'Google Paid', campaign: 'Spring Sale', keywords: 'emergency plumber', trackingNumber: '+14045550111' } });
    // Again: found, not duplicated.
    const again = await h.call('POST', url(account.accountId, '/synchronize'), token);
    await h.run(h.syncJob, { syncId: again.json<{ data: IntegrationSync }>().data.id });
    expect(await h.database.db.select().from(calls).where(eq(calls.accountId, account.accountId))).toHaveLength(130);
    expect(await h.database.db.select().from(contacts).where(eq(contacts.accountId, account.accountId))).toHaveLength(129);
  });

  it('takes a signed missed-call webhook: the caller, the call, and one text-back for two deliveries of the call', async () => {
    const { account, token, integration } = await connected();
    const template = await insertTemplate(h.database.db, account.accountId, { template: 'Sorry we missed you! Reply here and we will help.' });
    const props = await h.call('PUT', url(account.accountId, '/properties'), token, { textBackEnabled: true, textBackTemplateId: template.id, textBackWindowHours: 12 });
    expect(props.statusCode, props.body).toBe(200);
    const hook = integration.connection?.webhookToken ?? '';
    const missed = peerCall({ customer_name: 'Walt Webhook' });
    const { body, headers } = callRailWebhook(missed, SIGNING_KEY);

    const [first, second] = await Promise.all([deliver(hook, body, headers), deliver(hook, body, headers)]);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect([first.json<{ textBack: string }>().textBack, second.json<{ textBack: string }>().textBack].sort()).toEqual(['alreadyDone', 'sent']);
    const [contact] = await h.database.db.select().from(contacts).where(and(eq(contacts.accountId, account.accountId), eq(contacts.mobileNumber, missed.customer_phone_number)));
    expect(contact).toMatchObject({ firstName: 'Walt', lastName: 'Webhook' });
    const recorded = await h.database.db.select().from(calls).where(eq(calls.accountId, account.accountId));
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ externalId: missed.id, status: 'missed', contactId: contact?.id });
    const texts = await h.database.db.select().from(messages).where(and(eq(messages.accountId, account.accountId), eq(messages.direction, 'outbound')));
    expect(texts.map((m) => [m.body, m.toNumber, m.phoneNumberId])).toEqual([['Sorry we missed you! Reply here and we will help.', missed.customer_phone_number, account.numberId]]);

    // Answered later (the call modified webhook): the same call, updated; an answered call asks for nothing.
    const answered = callRailWebhook({ ...missed, answered: true, duration: 75 }, SIGNING_KEY);
    const update = await deliver(hook, answered.body, answered.headers);
    expect(update.json<{ textBack: string }>().textBack).toBe('notAsked');
    expect(await h.database.db.select({ status: calls.status, duration: calls.durationSeconds }).from(calls).where(eq(calls.accountId, account.accountId))).toEqual([{ status: 'answered', duration: 75 }]);
  });

  it('refuses unsigned, forged and unknown webhooks, and forgets the address on disconnect', async () => {
    const { account, token, integration } = await connected();
    const hook = integration.connection?.webhookToken ?? '';
    const { body, headers } = callRailWebhook(peerCall(), SIGNING_KEY);
    const unsigned = await deliver(hook, body, { 'content-type': 'application/json' });
    expect(unsigned.statusCode).toBe(401);
    expect(unsigned.json<{ error: { message: string } }>().error.message).toBe(CALLRAIL_UNSIGNED_MESSAGE);
    const forged = callRailWebhook(peerCall(), 'another-key');
    expect((await deliver(hook, forged.body, forged.headers)).statusCode).toBe(401);
    // A body changed after signing.
    expect((await deliver(hook, body.replace('Carla', 'Mallory'), headers)).statusCode).toBe(401);
    expect((await deliver('x'.repeat(24), body, headers)).statusCode).toBe(404);
    expect(await h.database.db.select().from(calls).where(eq(calls.accountId, account.accountId))).toEqual([]);

    expect((await h.call('DELETE', url(account.accountId, '/disconnect'), token)).statusCode).toBe(200);
    const gone = await deliver(hook, body, headers);
    expect(gone.statusCode).toBe(404);
    expect(gone.json<{ error: { message: string } }>().error.message).toBe(CALLRAIL_UNKNOWN_WEBHOOK);
  });
});
