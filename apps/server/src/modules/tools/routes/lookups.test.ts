import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOOKUP_NUMBER_INVALID, type CarrierLookup, type LookupSettings, type NameLookup } from '@parley/shared';
import { accountTransactions, numberLookups } from '../../../platform/db/schema/index.js';
import { NAME_THE_ACCOUNT_MESSAGE } from '../../identity/guard.js';
import { simulatorInventory } from '../../carriers/simulator/inventory.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { createAccount, createUser } from '../../../test/factories.js';
import { useRouteHarness } from '../../../test/routeHarness.js';
import { addPhoneNumber, balanceOf, sendingAccount } from '../../../test/sendingFixtures.js';
import { TwilioLookupPeer } from '../test/twilioLookupPeer.js';

type Res = LightMyRequestResponse;
const errorOf = (res: Res) => res.json<{ error: { code: string; message: string } }>().error;
const carrierOf = (res: Res) => res.json<{ success: true; data: CarrierLookup }>().data;
const nameOf = (res: Res) => res.json<{ success: true; data: NameLookup }>().data;

describe.each(testDatabaseKinds)('number lookups without a provider on %s', (kind) => {
  const { h, fixtures, tokens, ownAccount } = useRouteHarness(kind);
  const url = (acc: string, what: string, query: string) => `/v1/accounts/${acc}/tools/${what}?${query}`;

  it("answers a real number's range type and first carrier for free, read in the country given or the account's", async () => {
    const account = await sendingAccount(h.database.db, { balance: '1' });
    const token = h.tokenFor(account.adminId);
    const res = await h.call('GET', url(account.accountId, 'carrierlookup', 'country=FR&number=06%2012%2034%2056%2078'), token);
    expect(res.statusCode, res.body).toBe(200);
    expect(carrierOf(res)).toEqual({
      number: '+33612345678',
      country: 'FR',
      carrier: 'SFR',
      type: 'mobile',
      source: 'offline',
      cached: false,
      charged: '0.0000',
      lookedUpAt: expect.any(String) as string,
    });
    // No country: the account's default one (US) reads a national number.
    const us = carrierOf(await h.call('GET', url(account.accountId, 'carrierlookup', 'number=(800)%20555-0100'), token));
    expect(us).toMatchObject({ number: '+18005550100', country: 'US', type: 'tollFree', carrier: null });
    expect(await balanceOf(h.database.db, account.accountId)).toBe('1.0000');

    const name = nameOf(await h.call('GET', url(account.accountId, 'namelookup', 'number=%2B33612345678'), token));
    expect(name).toMatchObject({ number: '+33612345678', name: null, suggestions: [], source: 'offline', charged: '0.0000' });
  });

  it("answers the simulated network's own numbers itself: its carrier, and the holding account's name", async () => {
    const account = await sendingAccount(h.database.db);
    const token = h.tokenFor(account.adminId);
    const held = simulatorInventory('US')[7] ?? '';
    const other = await createAccount(h.database.db, {}, { name: 'Northwind Dental' });
    await addPhoneNumber(h.database.db, other.id, { number: held });
    const carrier = carrierOf(await h.call('GET', url(account.accountId, 'carrierlookup', `number=${encodeURIComponent(held)}`), token));
    expect(carrier).toMatchObject({ number: held, carrier: 'Parley simulated network', source: 'simulator', charged: '0.0000' });
    const name = nameOf(await h.call('GET', url(account.accountId, 'namelookup', `number=${encodeURIComponent(held)}`), token));
    expect(name).toMatchObject({
      name: 'Northwind Dental',
      suggestions: [
        { firstName: 'Northwind', lastName: 'Dental' },
        { firstName: 'Dental', lastName: 'Northwind' },
      ],
      source: 'simulator',
    });
    const unheld = simulatorInventory('US')[8] ?? '';
    expect(nameOf(await h.call('GET', url(account.accountId, 'namelookup', `number=${encodeURIComponent(unheld)}`), token)).name).toBeNull();
  });

  it('refuses a missing, invalid or wrongly placed number with a clear message', async () => {
    const acc = fixtures.accountId;
    const missing = await h.call('GET', url(acc, 'carrierlookup', 'number=%20'), tokens.Administrator);
    expect(missing.statusCode).toBe(400);
    expect(errorOf(missing).message).toContain('Number is required');
    const invalid = await h.call('GET', url(acc, 'carrierlookup', 'country=GB&number=12'), tokens.Administrator);
    expect(invalid.statusCode).toBe(400);
    expect(errorOf(invalid).message).toBe(LOOKUP_NUMBER_INVALID);
    const country = await h.call('GET', url(acc, 'namelookup', 'country=Britain&number=07700900123'), tokens.Administrator);
    expect(country.statusCode).toBe(400);
    expect(errorOf(country).message).toContain('Country is not valid');
  });

  it('lets every role but Read Only look up, every role read the settings, and no one reach another account', async () => {
    const acc = fixtures.accountId;
    for (const role of ['Administrator', 'CampaignManager', 'Sender'] as const) {
      expect((await h.call('GET', url(acc, 'carrierlookup', 'number=%2B33612345678'), tokens[role])).statusCode).toBe(200);
    }
    const readOnly = await h.call('GET', url(acc, 'namelookup', 'number=%2B33612345678'), tokens.ReadOnly);
    expect(readOnly.statusCode).toBe(403);
    for (const role of ['Administrator', 'ReadOnly'] as const) {
      const settings = await h.call('GET', `/v1/accounts/${acc}/tools/lookups`, tokens[role]);
      expect(settings.json<{ data: LookupSettings }>().data).toEqual({ provider: 'offline', prices: { carrier: '0.0100', name: '0.0100' }, cacheDays: 30 });
    }
    const { account } = await ownAccount();
    expect((await h.call('GET', url(account.id, 'carrierlookup', 'number=%2B33612345678'), tokens.Administrator)).statusCode).toBe(404);
    expect((await h.call('GET', `/v1/accounts/${account.id}/tools/lookups`, tokens.ReadOnly)).statusCode).toBe(404);
  });

  it("answers the hosted product's paths in the token's account, and asks a person of several accounts to name one", async () => {
    const { account, token } = await ownAccount();
    const res = await h.call('GET', '/v1/tools/carrierlookup?number=%2B33612345678', token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: true, data: { carrier: 'SFR' } });
    const person = await createUser(h.database.db);
    await createAccount(h.database.db, { [person.id]: 'Sender' });
    await createAccount(h.database.db, { [person.id]: 'Sender' });
    const several = await h.call('GET', '/v1/tools/namelookup?number=%2B33612345678', h.tokenFor(person.id));
    expect(several.statusCode).toBe(400);
    expect(errorOf(several).message).toBe(NAME_THE_ACCOUNT_MESSAGE);
    const notTheirs = await h.call('GET', `/v1/tools/namelookup?number=%2B33612345678&accountId=${account.id}`, h.tokenFor(person.id));
    expect(notTheirs.statusCode).toBe(404);
  });
});

describe.each(testDatabaseKinds)('number lookups through Twilio Lookup on %s', (kind) => {
  const peer = new TwilioLookupPeer('AC' + 'a'.repeat(32), 'lookup-token-0123456789');
  const env: Record<string, string> = {
    LOOKUP_PROVIDER: 'twilio',
    TWILIO_ACCOUNT_SID: peer.accountSid,
    TWILIO_AUTH_TOKEN: peer.authToken,
    PUBLIC_URL: 'https://parley.example.test',
  };
  beforeAllStartPeer(peer, env);
  const { h } = useRouteHarness(kind, { env });
  const lookup = (acc: string, token: string, what: string, number: string) =>
    h.call('GET', `/v1/accounts/${acc}/tools/${what}?number=${encodeURIComponent(number)}`, token);
  const debitsOf = (accountId: string) =>
    h.database.db.select().from(accountTransactions).where(and(eq(accountTransactions.accountId, accountId), eq(accountTransactions.kind, 'debit')));

  it("asks Twilio once, charges each account once per answer, and asks again when the answer is 30 days old", async () => {
    const number = '+14155552677';
    peer.numbers.set(number, { carrierName: 'Verizon Wireless', type: 'nonFixedVoip' });
    const first = await sendingAccount(h.database.db, { balance: '1' });
    const asked = peer.requests.length;
    const res = await lookup(first.accountId, h.tokenFor(first.adminId), 'carrierlookup', number);
    expect(res.statusCode, res.body).toBe(200);
    expect(carrierOf(res)).toMatchObject({ number, carrier: 'Verizon Wireless', type: 'voip', source: 'twilio', cached: false, charged: '0.0100' });
    expect(peer.requests.slice(asked)).toEqual([{ number, fields: 'line_type_intelligence' }]);
    expect(await balanceOf(h.database.db, first.accountId)).toBe('0.9900');

    const again = carrierOf(await lookup(first.accountId, h.tokenFor(first.adminId), 'carrierlookup', number));
    expect(again).toMatchObject({ carrier: 'Verizon Wireless', cached: true, charged: '0.0000' });
    const second = await sendingAccount(h.database.db, { balance: '1' });
    const theirs = carrierOf(await lookup(second.accountId, h.tokenFor(second.adminId), 'carrierlookup', number));
    expect(theirs).toMatchObject({ cached: true, charged: '0.0100' });
    expect(peer.requests.length - asked).toBe(1);
    expect((await debitsOf(first.accountId)).map((d) => d.description)).toEqual([`Carrier lookup ${number}`]);

    await h.database.db
      .update(numberLookups)
      .set({ lookedUpAt: new Date(Date.now() - 31 * 86_400_000) })
      .where(eq(numberLookups.number, number));
    const fresh = carrierOf(await lookup(first.accountId, h.tokenFor(first.adminId), 'carrierlookup', number));
    expect(fresh).toMatchObject({ cached: false, charged: '0.0100' });
    expect(peer.requests.length - asked).toBe(2);
    expect(await balanceOf(h.database.db, first.accountId)).toBe('0.9800');
  });

  it('gives the caller name and the names it may stand for', async () => {
    const number = '+14155552678';
    peer.numbers.set(number, { callerName: 'SMITH,JOHN' });
    const account = await sendingAccount(h.database.db, { balance: '1' });
    const name = nameOf(await lookup(account.accountId, h.tokenFor(account.adminId), 'namelookup', number));
    expect(name).toMatchObject({ name: 'SMITH,JOHN', suggestions: [{ firstName: 'John', lastName: 'Smith' }], charged: '0.0100', source: 'twilio' });
    expect(peer.requests.at(-1)).toEqual({ number, fields: 'caller_name' });
  });

  it('refuses a lookup the balance cannot pay before asking Twilio, and gives the charge back when Twilio fails', async () => {
    const number = '+14155552679';
    peer.numbers.set(number, { carrierName: 'AT&T', type: 'mobile' });
    const broke = await sendingAccount(h.database.db, { balance: '0' });
    const asked = peer.requests.length;
    const refused = await lookup(broke.accountId, h.tokenFor(broke.adminId), 'carrierlookup', number);
    expect(refused.statusCode).toBe(402);
    expect(peer.requests.length).toBe(asked);

    const account = await sendingAccount(h.database.db, { balance: '1' });
    peer.failWith = 500;
    try {
      const failed = await lookup(account.accountId, h.tokenFor(account.adminId), 'carrierlookup', number);
      expect(failed.statusCode).toBe(502);
      expect(errorOf(failed).message).toContain('nothing was charged');
    } finally {
      peer.failWith = null;
    }
    expect(await balanceOf(h.database.db, account.accountId)).toBe('1.0000');
    const ok = carrierOf(await lookup(account.accountId, h.tokenFor(account.adminId), 'carrierlookup', number));
    expect(ok).toMatchObject({ carrier: 'AT&T', charged: '0.0100' });
    expect(await balanceOf(h.database.db, account.accountId)).toBe('0.9900');
  });
});

/** Starts the peer before the harness reads its environment (hooks run in the order they are added). */
function beforeAllStartPeer(peer: TwilioLookupPeer, env: Record<string, string>): void {
  beforeAll(async () => {
    env.TWILIO_LOOKUP_BASE_URL = await peer.start();
  });
  afterAll(async () => {
    await peer.close();
  });
}
