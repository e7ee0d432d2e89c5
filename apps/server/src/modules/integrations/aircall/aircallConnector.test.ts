import { and, eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AIRCALL_LINE_TARGET_MESSAGE, type AirCallDirectory, type AirCallRefreshResponse, type Integration } from '@parley/shared';
import { calls, contactGroups, groupPhoneNumbers, integrationLines, messages } from '../../../platform/db/schema/index.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { addPhoneNumber, sendingAccount, uniqueSendingTestNumber, type SendingAccount } from '../../../test/sendingFixtures.js';
import { insertTemplate } from '../../../test/templates.js';
import { OAUTH_STATE_INVALID_MESSAGE } from '../oauthCommands.js';
import { startIntegrationHarness, type IntegrationHarness } from '../test/integrationHarness.js';
import { AIRCALL_TARGET_NOT_FOUND } from './aircallDirectory.js';
import { AIRCALL_TEXT_BACK_CARD_TITLE, AIRCALL_TOKEN_REFUSED, AIRCALL_UNKNOWN_WEBHOOK } from './aircallWebhook.js';
import { aircallEnv, connectAirCall, peerCall, spaced } from './test/aircallFixtures.js';
import { startAirCallPeer, type AirCallPeer, type PeerNumber, type PeerWebhook } from './test/aircallPeer.js';

describe.each(testDatabaseKinds)('AirCall (%s)', (kind) => {
  let peer: AirCallPeer;
  let h: IntegrationHarness;
  beforeAll(async () => {
    peer = await startAirCallPeer();
    h = await startIntegrationHarness(kind, aircallEnv(peer));
  });
  afterAll(async () => {
    await h.close();
    await peer.close();
  });

  const url = (accountId: string, path = ''): string => `/v1/accounts/${accountId}/integrations/aircall${path}`;

  /** A connected account whose number AirCall has too (written as AirCall writes digits), and the webhook made for it. */
  async function connected(): Promise<{ account: SendingAccount; token: string; integration: Integration; webhook: PeerWebhook; line: PeerNumber }> {
    const account = await sendingAccount(h.database.db);
    const token = h.tokenFor(account.adminId);
    expect(await connectAirCall(h, account.accountId, token)).toBe('http://parley.test/integrations/aircall');
    const integration = (await h.call('GET', url(account.accountId), token)).json<{ data: Integration }>().data;
    const webhook = peer.webhooks.find((w) => w.url.endsWith(integration.connection?.webhookKey ?? 'none'));
    if (webhook === undefined) throw new Error('no webhook was made');
    const line: PeerNumber = { id: 100_000 + peer.numbers.length, name: `Front desk ${kind}`, digits: spaced(account.number) };
    peer.numbers.push(line);
    return { account, token, integration, webhook, line };
  }

  const refresh = async (accountId: string, token: string): Promise<AirCallRefreshResponse> => {
    const res = await h.call('GET', url(accountId, '/refresh'), token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<AirCallRefreshResponse>();
  };
  const deliver = (key: string, body: string) => h.app.inject({ method: 'POST', url: `/v1/integrations/aircall/webhook/${key}`, headers: { 'content-type': 'application/json' }, payload: body });

  it('connects through the authorize page, makes its webhook, sends no PKCE, and refuses a tampered state', async () => {
    const account = await sendingAccount(h.database.db);
    const token = h.tokenFor(account.adminId);
    const start = await h.call('GET', url(account.accountId, '/oauth/start'), token);
    const authorize = new URL(start.json<{ data: { url: string } }>().data.url);
    expect(authorize.pathname).toBe('/oauth/authorize');
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({ client_id: peer.clientId, response_type: 'code', scope: 'public_api', redirect_uri: 'http://parley.test/v1/integrations/aircall/oauth/callback' });
    expect(authorize.searchParams.has('code_challenge')).toBe(false);

    expect(await connectAirCall(h, account.accountId, token, true)).toBe(`http://parley.test/integrations/aircall?error=${encodeURIComponent(OAUTH_STATE_INVALID_MESSAGE)}`);
    expect((await h.call('GET', url(account.accountId), token)).json<{ data: Integration }>().data.status).toBe('notConnected');

    const before = peer.webhooks.length;
    expect(await connectAirCall(h, account.accountId, token)).toBe('http://parley.test/integrations/aircall');
    const integration = (await h.call('GET', url(account.accountId), token)).json<{ data: Integration }>().data;
    expect(integration).toMatchObject({ status: 'connected', auth: 'oauth', connection: { companyId: '4242', companyName: 'Parley' }, properties: { textBackEnabled: false, recordTextBacks: true } });
    expect(peer.webhooks).toHaveLength(before + 1);
    const webhook = peer.webhooks.at(-1);
    expect(webhook?.url).toBe(`http://parley.test/v1/integrations/aircall/webhook/${integration.connection?.webhookKey ?? ''}`);
    expect(webhook?.events).toEqual(expect.arrayContaining(['call.created', 'call.ended', 'call.voicemail_left']));
    expect(JSON.stringify(integration)).not.toContain(peer.accessToken);
    expect(JSON.stringify(integration)).not.toContain(webhook?.token ?? 'none');
  });

  it('refreshes every page of numbers and users, maps numbers by their digits, and says why it failed', async () => {
    const { account, token } = await connected();
    const extra = Array.from({ length: 60 }, (_, i) => ({ id: 500_000 + i, name: `Line ${String(i).padStart(2, '0')}`, digits: spaced(uniqueSendingTestNumber()) }));
    peer.numbers.push(...extra);
    peer.users.splice(0, peer.users.length, { id: 1, name: 'Ada Agent', email: 'ada@acme.example' }, { id: 2, name: 'Bo Agent', email: 'bo@acme.example' });
    peer.requests.length = 0;
    const answer = await refresh(account.accountId, token);
    expect(answer.success).toBe(true);
    const data = answer.success ? answer.data : { lines: [], users: [] };
    expect(data.lines).toHaveLength(peer.numbers.length);
    expect(peer.requests.filter((r) => r.startsWith('GET /v1/numbers')).length).toBeGreaterThanOrEqual(2);
    expect(data.lines.find((l) => l.number === account.number)).toMatchObject({ phoneNumberId: account.numberId, groupId: null, mappedBy: 'auto' });
    expect(data.lines.filter((l) => l.phoneNumberId !== null)).toHaveLength(1);
    expect(data.users.map((u) => u.name)).toEqual(['Ada Agent', 'Bo Agent']);

    // A page link off AirCall's host is not followed: the token stays with AirCall.
    peer.linkOrigin = 'http://127.0.0.2:9';
    peer.requests.length = 0;
    expect((await refresh(account.accountId, token)).success).toBe(true);
    expect(peer.requests.filter((r) => r.startsWith('GET /v1/numbers'))).toEqual(['GET /v1/numbers?per_page=50']);
    peer.linkOrigin = null;
    peer.numbers.splice(peer.numbers.length - extra.length, extra.length);

    peer.throttleNext('/v1/users');
    expect(await refresh(account.accountId, token)).toEqual({ success: false, error: { message: 'AirCall asked to slow down' } });
  });

  it('lets an administrator send a number to another number or a group, kept by refresh, and back to its digits', async () => {
    const { account, token, line } = await connected();
    await refresh(account.accountId, token);
    const other = await addPhoneNumber(h.database.db, account.accountId);
    const groupId = uuidv7();
    await h.database.db.insert(contactGroups).values({ id: groupId, accountId: account.accountId, name: 'Sales' });
    await h.database.db.insert(groupPhoneNumbers).values({ groupId, phoneNumberId: other.id });
    const put = (body: object) => h.call('PUT', url(account.accountId, '/lines'), token, body);
    const lineOf = (res: { body: string }) => (JSON.parse(res.body) as { data: AirCallDirectory }).data.lines.find((l) => l.id === String(line.id));

    expect(lineOf(await put({ lines: [{ id: String(line.id), phoneNumberId: other.id, groupId: null }] }))).toMatchObject({ phoneNumberId: other.id, mappedBy: 'admin' });
    await refresh(account.accountId, token);
    expect(lineOf(await h.call('GET', url(account.accountId, '/lines'), token))).toMatchObject({ phoneNumberId: other.id, mappedBy: 'admin' });
    expect(lineOf(await put({ lines: [{ id: String(line.id), phoneNumberId: null, groupId }] }))).toMatchObject({ phoneNumberId: null, groupId, mappedBy: 'admin' });
    const both = await put({ lines: [{ id: String(line.id), phoneNumberId: other.id, groupId }] });
    expect(both.statusCode).toBe(400);
    expect(both.body).toContain(AIRCALL_LINE_TARGET_MESSAGE);
    const elsewhere = await sendingAccount(h.database.db);
    const foreign = await put({ lines: [{ id: String(line.id), phoneNumberId: elsewhere.numberId, groupId: null }] });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json<{ error: { message: string } }>().error.message).toBe(AIRCALL_TARGET_NOT_FOUND);
    expect((await put({ lines: [{ id: 'nosuch', phoneNumberId: null, groupId: null }] })).statusCode).toBe(404);

    // A call to the AirCall number is filed under the group's number.
    const caller = uniqueSendingTestNumber();
    const hook = (await h.call('GET', url(account.accountId), token)).json<{ data: Integration }>().data.connection?.webhookKey ?? '';
    const webhook = peer.webhooks.find((w) => w.url.endsWith(hook));
    if (webhook === undefined) throw new Error('no webhook');
    const delivered = await deliver(hook, peer.event(webhook, 'call.ended', peerCall(line, caller, { answered_at: Math.floor(Date.now() / 1000) - 100 })));
    expect(delivered.statusCode, delivered.body).toBe(200);
    expect(await h.database.db.select({ phoneNumberId: calls.phoneNumberId, status: calls.status }).from(calls).where(eq(calls.accountId, account.accountId))).toEqual([{ phoneNumberId: other.id, status: 'answered' }]);

    expect(lineOf(await put({ lines: [{ id: String(line.id), phoneNumberId: null, groupId: null }] }))).toMatchObject({ phoneNumberId: account.numberId, groupId: null, mappedBy: 'auto' });
  });

  it('files a missed call from its token-bearing webhook and texts the caller back once for two events of the call', async () => {
    const { account, token, integration, webhook, line } = await connected();
    await refresh(account.accountId, token);
    const template = await insertTemplate(h.database.db, account.accountId, { template: 'Sorry we missed you! Reply here.' });
    const props = await h.call('PUT', url(account.accountId, '/properties'), token, { textBackEnabled: true, textBackTemplateId: template.id, textBackWindowHours: 12 });
    expect(props.statusCode, props.body).toBe(200);
    const hook = integration.connection?.webhookKey ?? '';
    const caller = uniqueSendingTestNumber();
    const missed = peerCall(line, caller);

    const ringing = await deliver(hook, peer.event(webhook, 'call.created', { ...missed, status: 'initial', ended_at: null, duration: 0 }));
    expect(ringing.json()).toMatchObject({ textBack: 'notAsked' });
    const [hungup, ended] = await Promise.all([deliver(hook, peer.event(webhook, 'call.hungup', missed)), deliver(hook, peer.event(webhook, 'call.ended', missed))]);
    expect([hungup.statusCode, ended.statusCode]).toEqual([200, 200]);
    expect([hungup.json<{ textBack: string }>().textBack, ended.json<{ textBack: string }>().textBack].sort()).toEqual(['alreadyDone', 'sent']);
    const voicemail = await deliver(hook, peer.event(webhook, 'call.voicemail_left', { ...missed, voicemail: 'https://aircall.example/voicemail.mp3' }));
    expect(voicemail.json()).toMatchObject({ textBack: 'alreadyDone', insightCard: 'notAsked' });

    const recorded = await h.database.db.select().from(calls).where(eq(calls.accountId, account.accountId));
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ source: 'aircall', externalId: String(missed.id), status: 'voicemail', fromNumber: caller, phoneNumberId: account.numberId, recordingUrl: 'https://aircall.example/voicemail.mp3' });
    expect(recorded[0]?.attributes).toMatchObject({ line: line.name, missedReason: 'agents_did_not_answer' });
    const texts = await h.database.db.select().from(messages).where(and(eq(messages.accountId, account.accountId), eq(messages.direction, 'outbound')));
    expect(texts.map((m) => [m.body, m.toNumber, m.phoneNumberId])).toEqual([['Sorry we missed you! Reply here.', caller, account.numberId]]);
    expect(peer.insightCards.filter((c) => c.callId === String(missed.id))).toEqual([
      { callId: String(missed.id), contents: [{ type: 'title', text: AIRCALL_TEXT_BACK_CARD_TITLE }, { type: 'shortText', label: 'Text', text: 'Sorry we missed you! Reply here.' }] },
    ]);

    // An event that is not a call's is answered and left alone.
    const other = await deliver(hook, JSON.stringify({ resource: 'user', event: 'user.opened', token: webhook.token, data: { id: 1 } }));
    expect(other.json()).toEqual({ call: null, textBack: 'notAsked', insightCard: 'notAsked' });
  });

  it('refuses forged, missing and unknown tokens; refresh makes a lost webhook again; disconnect removes it', async () => {
    const { account, token, integration, webhook, line } = await connected();
    const hook = integration.connection?.webhookKey ?? '';
    const call = peerCall(line, uniqueSendingTestNumber());
    const forged = await deliver(hook, peer.event(webhook, 'call.ended', call, 'not-the-token'));
    expect(forged.statusCode).toBe(401);
    expect(forged.json<{ error: { message: string } }>().error.message).toBe(AIRCALL_TOKEN_REFUSED);
    const { token: _dropped, ...unsigned } = JSON.parse(peer.event(webhook, 'call.ended', call)) as Record<string, unknown>;
    expect((await deliver(hook, JSON.stringify(unsigned))).statusCode).toBe(401);
    // Another connection's token does not open this one.
    const second = await connected();
    expect((await deliver(hook, peer.event(second.webhook, 'call.ended', call))).statusCode).toBe(401);
    expect((await deliver('x'.repeat(24), peer.event(webhook, 'call.ended', call))).statusCode).toBe(404);
    expect(await h.database.db.select().from(calls).where(eq(calls.accountId, account.accountId))).toEqual([]);

    // AirCall lost the webhook: refresh makes another, whose token is the one now taken.
    peer.webhooks.splice(peer.webhooks.indexOf(webhook), 1);
    expect((await refresh(account.accountId, token)).success).toBe(true);
    const remade = peer.webhooks.find((w) => w.url.endsWith(hook));
    if (remade === undefined) throw new Error('no webhook made again');
    expect(remade.token).not.toBe(webhook.token);
    expect((await deliver(hook, peer.event(webhook, 'call.ended', call))).statusCode).toBe(401);
    expect((await deliver(hook, peer.event(remade, 'call.ended', call))).statusCode).toBe(200);

    expect((await h.call('DELETE', url(account.accountId, '/disconnect'), token)).statusCode).toBe(200);
    expect(peer.webhooks.some((w) => w.url.endsWith(hook))).toBe(false);
    expect(await h.database.db.select().from(integrationLines).where(eq(integrationLines.accountId, account.accountId))).toEqual([]);
    const gone = await deliver(hook, peer.event(remade, 'call.ended', call));
    expect(gone.statusCode).toBe(404);
    expect(gone.json<{ error: { message: string } }>().error.message).toBe(AIRCALL_UNKNOWN_WEBHOOK);
    expect((await h.call('GET', url(account.accountId, '/refresh'), token)).statusCode).toBe(409);
  });
});
