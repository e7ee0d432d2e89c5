import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CarrierConnection, Integration, PhoneNumber, TwilioAccountNumber } from '@parley/shared';
import { carrierSettings, phoneNumbers } from '../../../platform/db/schema/index.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { uniqueTestNumber } from '../../../test/phoneNumbers.js';
import { useRouteHarness } from '../../../test/routeHarness.js';
import { TwilioApiPeer } from '../../carriers/twilio/test/testTwilioPeer.js';

/*
 * The Twilio integration page's API against the local Twilio: connect (checked with Twilio), the account's
 * numbers paged, import (webhook set at Twilio, a number of the connection in Parley), disconnect.
 */

const SID = `AC${crypto.randomBytes(16).toString('hex')}`;
const TOKEN = crypto.randomBytes(16).toString('hex');
const PUBLIC_URL = 'https://sms.example.test';
const peer = new TwilioApiPeer(SID, TOKEN);
const env: Record<string, string> = { SECRETS_KEY: crypto.randomBytes(32).toString('base64'), PUBLIC_URL };
// Valid numbers unlikely to meet another test's (the active-number index is global): a random exchange
// could start with 0 or 1, which no US number has, and the import refused it.
const owned = Array.from({ length: 3 }, () => uniqueTestNumber());

beforeAll(async () => {
  env.TWILIO_API_BASE_URL = await peer.start();
  for (const number of owned) peer.addOwned(number, `Line ${number.slice(-4)}`);
});
afterAll(() => peer.close());

const connectBody = { name: 'Our Twilio', settings: { accountSid: SID }, secret: TOKEN };

describe.each(testDatabaseKinds)('the Twilio integration on %s', (kind) => {
  const { h, fixtures, tokens, ownAccount } = useRouteHarness(kind, { env });
  const url = (accountId: string, path = '') => `/v1/accounts/${accountId}/integrations/twilio/connections${path}`;

  it('refuses other roles, bad input and credentials Twilio refuses; nothing is kept', async () => {
    const { account, token } = await ownAccount();
    const manager = await h.call('POST', url(fixtures.accountId), tokens.CampaignManager, connectBody);
    expect(manager.statusCode).toBe(403);
    const bad = await h.call('POST', url(account.id), token, { ...connectBody, settings: { accountSid: 'AC123' } });
    expect(bad.statusCode).toBe(400);
    const refused = await h.call('POST', url(account.id), token, { ...connectBody, secret: 'not-the-token' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ error: { message: string } }>().error.message).toBe('Twilio refused the Account SID and auth token');
    peer.accountStatus = 'suspended';
    const suspended = await h.call('POST', url(account.id), token, connectBody);
    peer.accountStatus = 'active';
    expect(suspended.json<{ error: { message: string } }>().error.message).toBe('This Twilio account is not active');
    expect(await h.database.db.select().from(carrierSettings).where(eq(carrierSettings.accountId, account.id))).toHaveLength(0);
  });

  it('connects, pages the numbers, imports one, and disconnects: the number released, the webhook unset', async () => {
    const { account, token } = await ownAccount();
    const integration = async (): Promise<Integration> => (await h.call('GET', `/v1/accounts/${account.id}/integrations/twilio`, token)).json<{ data: Integration }>().data;
    expect((await integration()).status).toBe('notConnected');

    const made = await h.call('POST', url(account.id), token, connectBody);
    expect(made.statusCode, made.body).toBe(201);
    const connection = made.json<{ data: CarrierConnection }>().data;
    expect(connection).toMatchObject({ carrier: 'twilio', name: 'Our Twilio', settings: { accountSid: SID } });
    expect(connection.secret).not.toContain(TOKEN);
    expect((await integration()).status).toBe('connected');
    expect((await h.call('POST', url(account.id), token, connectBody)).statusCode).toBe(409);

    // Two pages of two: the cursor is Twilio's next_page_uri.
    const first = await h.call('GET', url(account.id, `/${connection.id}/numbers`), token);
    expect(first.statusCode, first.body).toBe(200);
    const all: TwilioAccountNumber[] = [];
    let page = first.json<{ data: TwilioAccountNumber[]; nextCursor: string | null }>();
    all.push(...page.data);
    while (page.nextCursor !== null) {
      const next = await h.call('GET', `${url(account.id, `/${connection.id}/numbers`)}?cursor=${encodeURIComponent(page.nextCursor)}`, token);
      page = next.json();
      all.push(...page.data);
    }
    expect(all.map((n) => n.number)).toEqual(expect.arrayContaining(owned));
    const chosen = all.find((n) => n.number === owned[1]);
    if (chosen === undefined) throw new Error('the number is not listed');
    expect(chosen).toMatchObject({ smsEnabled: true, phoneNumberId: null });
    const foreign = await h.call('GET', `${url(account.id, `/${connection.id}/numbers`)}?cursor=${encodeURIComponent('https://evil.example/x')}`, token);
    expect(foreign.statusCode).toBe(400);

    const imported = await h.call('POST', url(account.id, `/${connection.id}/numbers`), token, { sids: [chosen.sid] });
    expect(imported.statusCode, imported.body).toBe(201);
    const [number] = imported.json<{ data: PhoneNumber[] }>().data;
    expect(number).toMatchObject({ number: chosen.number, status: 'active' });
    expect(peer.owned.find((n) => n.sid === chosen.sid)?.smsUrl).toBe(`${PUBLIC_URL}/v1/carriers/twilio/${connection.id}/inbound`);
    // Calls to the number reach Parley too: forwarded to its forwardTo, or recorded missed (docs/calls.md).
    expect(peer.owned.find((n) => n.sid === chosen.sid)?.voiceUrl).toBe(`${PUBLIC_URL}/v1/carriers/twilio/${connection.id}/voice`);
    const listed = await h.call('GET', `/v1/accounts/${account.id}/phonenumbers`, token);
    expect(listed.json<{ data: PhoneNumber[] }>().data.map((n) => n.number)).toContain(chosen.number);
    expect((await h.call('POST', url(account.id, `/${connection.id}/numbers`), token, { sids: [chosen.sid] })).statusCode).toBe(409);
    expect((await h.call('POST', url(account.id, `/${connection.id}/numbers`), token, { sids: [`PN${'0'.repeat(32)}`] })).statusCode).toBe(404);
    expect((await h.call('POST', url(account.id, `/${connection.id}/numbers`), token, { sids: ['nope'] })).statusCode).toBe(400);

    // Another account cannot see or use the connection.
    const other = await ownAccount();
    expect((await h.call('GET', url(other.account.id, `/${connection.id}/numbers`), other.token)).statusCode).toBe(404);
    expect((await h.call('DELETE', url(other.account.id, `/${connection.id}`), other.token)).statusCode).toBe(404);

    const gone = await h.call('DELETE', url(account.id, `/${connection.id}`), token);
    expect(gone.statusCode, gone.body).toBe(204);
    const [row] = await h.database.db.select().from(phoneNumbers).where(eq(phoneNumbers.id, number?.id ?? ''));
    expect(row).toMatchObject({ status: 'released', carrierSettingsId: null });
    expect(peer.owned.find((n) => n.sid === chosen.sid)?.smsUrl).toBe('');
    expect(peer.owned.find((n) => n.sid === chosen.sid)?.voiceUrl).toBe('');
    expect((await integration()).status).toBe('notConnected');
  });
});
