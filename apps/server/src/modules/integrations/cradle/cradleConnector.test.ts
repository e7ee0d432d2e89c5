import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTEGRATION_CREDENTIALS_REFUSED_MESSAGE, type Integration } from '@parley/shared';
import { calls, integrations, messages } from '../../../platform/db/schema/index.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { addPhoneNumber, sendingAccount, uniqueSendingTestNumber, type SendingAccount } from '../../../test/sendingFixtures.js';
import { insertTemplate } from '../../../test/templates.js';
import { startIntegrationHarness, type IntegrationHarness } from '../test/integrationHarness.js';
import { CRADLE_UNKNOWN_WEBHOOK, CRADLE_UNSIGNED_MESSAGE } from './cradleWebhook.js';
import { startCradlePeer, type CradlePeer, type PeerCall, type PeerWebhook } from './test/cradlePeer.js';

let serial = 0;

describe.each(testDatabaseKinds)('Cradle (%s)', (kind) => {
  let peer: CradlePeer;
  let h: IntegrationHarness;
  beforeAll(async () => {
    peer = await startCradlePeer();
    h = await startIntegrationHarness(kind, { CRADLE_API_BASE_URL: peer.url });
  });
  afterAll(async () => {
    await h.close();
    await peer.close();
  });

  const url = (accountId: string, path = ''): string => `/v1/accounts/${accountId}/integrations/cradle${path}`;
  const deliver = (key: string, signed: { body: string; headers: Record<string, string> }) =>
    h.app.inject({ method: 'POST', url: `/v1/integrations/cradle/webhook/${key}`, headers: signed.headers, payload: signed.body });

  async function connected(): Promise<{ account: SendingAccount; token: string; key: string; webhook: PeerWebhook }> {
    const account = await sendingAccount(h.database.db);
    const token = h.tokenFor(account.adminId);
    const res = await h.call('POST', url(account.accountId, '/connect'), token, { apiKey: peer.apiKey });
    expect(res.statusCode, res.body).toBe(200);
    const key = res.json<{ data: Integration }>().data.connection?.webhookKey ?? '';
    const webhook = peer.webhooks.find((w) => w.url.endsWith(key));
    if (webhook === undefined) throw new Error('no webhook registered');
    return { account, token, key, webhook };
  }

  const missedCall = (to: string, overrides: Partial<PeerCall> = {}): PeerCall => {
    serial += 1;
    return {
      id: `call_${kind}_${String(serial)}_${String(Date.now())}`,
      direction: 'inbound',
      status: 'missed',
      from: uniqueSendingTestNumber(),
      to,
      started_at: new Date(Date.now() - 60_000).toISOString(),
      duration_seconds: 0,
      recording_url: null,
      caller_name: 'Mia Missed',
      ...overrides,
    };
  };

  it('connects with a key Cradle accepts, registers a signed webhook, and refuses a key it does not', async () => {
    const account = await sendingAccount(h.database.db);
    const token = h.tokenFor(account.adminId);
    const refused = await h.call('POST', url(account.accountId, '/connect'), token, { apiKey: 'wrong' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ error: { message: string } }>().error.message).toBe(INTEGRATION_CREDENTIALS_REFUSED_MESSAGE);
    expect((await h.call('POST', url(account.accountId, '/connect'), token, { apiKey: '' })).statusCode).toBe(400);
    expect(await h.database.db.select().from(integrations).where(eq(integrations.accountId, account.accountId))).toEqual([]);

    const ok = await h.call('POST', url(account.accountId, '/connect'), token, { apiKey: peer.apiKey });
    expect(ok.statusCode, ok.body).toBe(200);
    const integration = ok.json<{ data: Integration }>().data;
    expect(integration).toMatchObject({ status: 'connected', auth: 'apiKey', connection: { accountId: 'acc_5150', cradleAccount: 'Harbour Law' } });
    const webhook = peer.webhooks.find((w) => w.url === `http://parley.test/v1/integrations/cradle/webhook/${integration.connection?.webhookKey ?? ''}`);
    expect(webhook?.events).toEqual(['call.completed']);
    expect(webhook?.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(integration)).not.toContain(webhook?.secret ?? 'none');
    expect(JSON.stringify(integration)).not.toContain(peer.apiKey);
  });

  it('files a signed missed call by its number pair and texts the caller back once for two deliveries', async () => {
    const { account, token, key, webhook } = await connected();
    const second = await addPhoneNumber(h.database.db, account.accountId);
    const template = await insertTemplate(h.database.db, account.accountId, { template: 'Sorry we missed you: reply and we will call back.' });
    expect((await h.call('PUT', url(account.accountId, '/properties'), token, { textBackEnabled: true, textBackTemplateId: template.id })).statusCode).toBe(200);
    const call = missedCall(second.number);
    const signed = peer.event(webhook, call);

    const [first, again] = await Promise.all([deliver(key, signed), deliver(key, signed)]);
    expect([first.statusCode, again.statusCode]).toEqual([200, 200]);
    expect([first.json<{ textBack: string }>().textBack, again.json<{ textBack: string }>().textBack].sort()).toEqual(['alreadyDone', 'sent']);
    const recorded = await h.database.db.select().from(calls).where(eq(calls.accountId, account.accountId));
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ source: 'cradle', externalId: call.id, status: 'missed', fromNumber: call.from, phoneNumberId: second.id });
    const texts = await h.database.db.select().from(messages).where(and(eq(messages.accountId, account.accountId), eq(messages.direction, 'outbound')));
    expect(texts.map((m) => [m.body, m.toNumber, m.phoneNumberId])).toEqual([['Sorry we missed you: reply and we will call back.', call.from, second.id]]);

    // A number Parley does not have: the account's chosen (here first) number.
    const elsewhere = missedCall('+12025550188', { status: 'answered', duration_seconds: 42 });
    expect((await deliver(key, peer.event(webhook, elsewhere))).json()).toMatchObject({ textBack: 'notAsked' });
    const [row] = await h.database.db.select().from(calls).where(and(eq(calls.accountId, account.accountId), eq(calls.externalId, elsewhere.id)));
    expect(row).toMatchObject({ phoneNumberId: account.numberId, status: 'answered', durationSeconds: 42 });
  });

  it('refuses unsigned, forged and tampered webhooks; forgets the address and the webhook on disconnect', async () => {
    const { account, token, key, webhook } = await connected();
    const signed = peer.event(webhook, missedCall(account.number));
    const unsigned = await deliver(key, { body: signed.body, headers: { 'content-type': 'application/json' } });
    expect(unsigned.statusCode).toBe(401);
    expect(unsigned.json<{ error: { message: string } }>().error.message).toBe(CRADLE_UNSIGNED_MESSAGE);
    expect((await deliver(key, peer.event(webhook, missedCall(account.number), 'another-secret'))).statusCode).toBe(401);
    expect((await deliver(key, { body: signed.body.replace('Mia', 'Mal'), headers: signed.headers })).statusCode).toBe(401);
    expect((await deliver('y'.repeat(24), signed)).statusCode).toBe(404);
    expect(await h.database.db.select().from(calls).where(eq(calls.accountId, account.accountId))).toEqual([]);

    expect((await h.call('DELETE', url(account.accountId, '/disconnect'), token)).statusCode).toBe(200);
    expect(peer.webhooks.some((w) => w.id === webhook.id)).toBe(false);
    const gone = await deliver(key, signed);
    expect(gone.statusCode).toBe(404);
    expect(gone.json<{ error: { message: string } }>().error.message).toBe(CRADLE_UNKNOWN_WEBHOOK);
  });
});
