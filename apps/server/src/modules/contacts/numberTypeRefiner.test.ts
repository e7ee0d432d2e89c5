import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client.js';
import { contacts, events, numberLookups } from '../../platform/db/schema/index.js';
import { creditAccount } from '../billing/ledger.js';
import { lineTypeForContact } from '../tools/index.js';
import { TwilioLookupPeer } from '../tools/test/twilioLookupPeer.js';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.js';
import { createAccount } from '../../test/factories.js';
import { jobDefinitions } from '../../app/jobDefinitions.js';
import { JobQueue } from '../../platform/jobs/queue.js';
import { testConfig } from '../../test/config.js';
import { silentLogger } from '../../test/logger.js';
import { createContact, updateContact } from './contactWriter.js';
import { refineNumberTypes, type ConfirmNumberType } from './numberTypeRefiner.js';

describe.each(testDatabaseKinds)('number types confirmed by the lookup provider (%s)', (kind) => {
  const peer = new TwilioLookupPeer('AC' + 'b'.repeat(32), 'refine-token-0123456789');
  let database: Database;
  let confirm: ConfirmNumberType;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    const baseUrl = await peer.start();
    confirm = (number) => lineTypeForContact({ db: database.db, lookups: { provider: 'twilio', baseUrl, accountSid: peer.accountSid, authToken: peer.authToken } }, number);
  });
  afterAll(async () => {
    await peer.close();
    await database.close();
  });

  /** An account with the 'validate phone number type' option on and a balance to pay for it. */
  async function checkingAccount(): Promise<string> {
    const account = await createAccount(database.db, {}, { options: { verifyNumberType: true } });
    await database.db.transaction((tx) => creditAccount(tx, { accountId: account.id, amount: '5.0000', description: 'Test credit' }));
    return account.id;
  }
  const addContact = async (accountId: string, number: string) =>
    (await createContact(database.db, accountId, { firstName: 'Pat', lastName: '', tags: [], attributes: {}, mobile: { number, country: 'US' } })).contact.id;
  const typeOf = async (id: string) =>
    (await database.db.select({ type: contacts.numberType, source: contacts.numberTypeSource }).from(contacts).where(eq(contacts.id, id)))[0];
  const updates = async (accountId: string) =>
    (await database.db.select().from(events).where(and(eq(events.accountId, accountId), eq(events.type, 'contactUpdated')))).length;
  /** Runs until nothing of these contacts waits (other files' contacts may share the database). */
  const refineAll = async () => {
    for (let round = 0; round < 20; round += 1) if ((await refineNumberTypes(database, confirm)).confirmed === 0) return;
  };

  it('runs every minute where a lookup provider is configured, and not at all without one', () => {
    // Never started: the definitions only keep it.
    const queue = new JobQueue({ database, log: silentLogger(), work: false, schedule: false, retryLimit: 0, retryDelaySeconds: 1 });
    const scheduleOf = (env: Record<string, string>) =>
      jobDefinitions(testConfig(env), database, queue).find((d) => d.name === 'contacts.refineNumberTypes')?.schedule?.cron ?? null;
    expect(scheduleOf({})).toBeNull();
    expect(scheduleOf({ LOOKUP_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: peer.accountSid, TWILIO_AUTH_TOKEN: peer.authToken, PUBLIC_URL: 'https://parley.example.test' })).toBe('* * * * *');
  });

  it("saves the range's type at once, then the provider's, asking once per number for every account", async () => {
    const number = '+14155552671';
    peer.numbers.set(number, { carrierName: 'Example Wireless', type: 'nonFixedVoip' });
    const first = await checkingAccount();
    const second = await checkingAccount();
    const id = await addContact(first, number);
    expect(await typeOf(id)).toEqual({ type: 'FIXED_LINE_OR_MOBILE', source: 'range' });
    const asked = peer.requests.length;
    await refineAll();
    expect(await typeOf(id)).toEqual({ type: 'VOIP', source: 'provider' });
    expect(await updates(first)).toBe(1);
    expect(peer.requests.length).toBe(asked + 1);
    const [kept] = await database.db.select().from(numberLookups).where(and(eq(numberLookups.number, number), eq(numberLookups.kind, 'carrier')));
    expect(kept?.result).toEqual({ carrier: 'Example Wireless', type: 'voip' });

    // The same number in another account: the kept answer, no second question.
    const other = await addContact(second, number);
    await refineAll();
    expect(await typeOf(other)).toEqual({ type: 'VOIP', source: 'provider' });
    expect(peer.requests.length).toBe(asked + 1);
  });

  it('leaves the type as the range gave it while the provider fails, and confirms it when the provider is back', async () => {
    const number = '+14155552672';
    peer.numbers.set(number, { carrierName: 'Example Mobile', type: 'mobile' });
    const accountId = await checkingAccount();
    const id = await addContact(accountId, number);
    peer.failWith = 503;
    try {
      const outcome = await refineNumberTypes(database, confirm);
      expect(outcome.confirmed).toBe(0);
      expect(outcome.failed).toBeGreaterThan(0);
      expect(await typeOf(id)).toEqual({ type: 'FIXED_LINE_OR_MOBILE', source: 'range' });
    } finally {
      peer.failWith = null;
    }
    await refineAll();
    expect(await typeOf(id)).toEqual({ type: 'MOBILE', source: 'provider' });
  });

  it('never writes an answer over a contact renumbered meanwhile, nor asks for types older than a day', async () => {
    const accountId = await checkingAccount();
    const id = await addContact(accountId, '+14155552673');
    peer.numbers.set('+14155552673', { type: 'landline' });
    const renumbering: ConfirmNumberType = async (number) => {
      if (number === '+14155552673') await updateContact(database.db, accountId, id, { mobile: { number: '+14155552674', country: 'US' } });
      return confirm(number);
    };
    await refineNumberTypes(database, renumbering);
    // The new number's own range type waits for its own answer; the old number's answer was not written.
    expect(await typeOf(id)).toEqual({ type: 'FIXED_LINE_OR_MOBILE', source: 'range' });

    const stale = await addContact(accountId, '+14155552675');
    await database.db.update(contacts).set({ numberTypeCheckedAt: new Date(Date.now() - 25 * 3_600_000) }).where(eq(contacts.id, stale));
    peer.numbers.set('+14155552675', { type: 'mobile' });
    await refineAll();
    expect(await typeOf(stale)).toEqual({ type: 'FIXED_LINE_OR_MOBILE', source: 'range' });
    expect(peer.requests.some((r) => r.number === '+14155552675')).toBe(false);
  });
});
