import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  PHONE_NUMBER_ALREADY_OURS_MESSAGE,
  PHONE_NUMBER_CONNECTION_NOT_SMPP_MESSAGE,
  PHONE_NUMBER_TAKEN_MESSAGE,
  PHONE_NUMBERS_TRIAL_MESSAGE,
  roles,
  type PhoneNumber,
} from '@parley/shared';
import type { Queryable } from '../../../platform/db/client.js';
import { auditLog, carrierSettings, phoneNumbers } from '../../../platform/db/schema/index.js';
import { outboxEvents } from '../../../test/accounts.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { createAccount, ensureTestPlan } from '../../../test/factories.js';
import { createPhoneNumber, uniqueTestNumber } from '../../../test/phoneNumbers.js';
import { useRouteHarness } from '../../../test/routeHarness.js';

/** A connection of the account as the connections API stores it (the secret is not read here). */
async function insertConnection(q: Queryable, accountId: string, carrier: 'smpp' | 'twilio' = 'smpp'): Promise<string> {
  const id = randomUUID();
  const settings: Record<string, string | number | boolean> =
    carrier === 'smpp' ? { host: 'smsc.example.test', port: 2775, systemId: 'acme', tls: false } : { accountSid: `AC${'0'.repeat(32)}` };
  await q.insert(carrierSettings).values({ id, accountId, carrier, name: `Connection ${id}`, settings, secret: 'v1.00000000.AAAA' });
  return id;
}

describe.each(testDatabaseKinds)("numbers of an account's own SMPP connection on %s", (kind) => {
  const { h, fixtures, tokens, ownAccount } = useRouteHarness(kind);

  const url = (acc: string, connection: string) => `/v1/accounts/${acc}/carriers/${connection}/phonenumbers`;

  it('adds the number active and verified, in its country, on the connection, and records who vouched for it', async () => {
    const { account, admin, token } = await ownAccount();
    const connection = await insertConnection(h.database.db, account.id);
    const res = await h.call('POST', url(account.id, connection), token, { number: '+44 20 7946 0123', name: ' Front desk ', messagesPerSecond: 5 });
    expect(res.statusCode, res.body).toBe(201);
    const { data } = res.json<{ data: PhoneNumber }>();
    expect(data).toMatchObject({
      number: '+442079460123',
      name: 'Front desk',
      status: 'active',
      verified: true,
      hosted: false,
      country: 'GB',
      supportedDestinations: ['GB'],
      type: 'longcode',
      carrier: 'smpp',
      messagesPerSecond: 5,
    });
    const [row] = await h.database.db.select().from(phoneNumbers).where(eq(phoneNumbers.id, data.id));
    expect(row).toMatchObject({ accountId: account.id, carrierSettingsId: connection, carrierNumberId: null });
    expect(await outboxEvents(h.database.db, 'phoneNumberAdded', account.id)).toEqual([{ data: { phoneNumber: data } }]);
    expect(await h.database.db.select().from(auditLog).where(eq(auditLog.accountId, account.id))).toEqual([
      expect.objectContaining({
        actorUserId: admin.id,
        action: 'phoneNumber.add',
        subjectId: data.id,
        details: { number: '+442079460123', carrier: 'smpp', carrierSettingsId: connection, vouchedBy: 'member' },
      }),
    ]);
    // The account's list shows it; a toll-free number is typed as such and gets one message a second by default.
    const list = await h.call('GET', `/v1/accounts/${account.id}/phonenumbers`, token);
    expect(list.json<{ data: PhoneNumber[] }>().data.map((n) => n.id)).toEqual([data.id]);
    const tollFree = await h.call('POST', url(account.id, connection), token, { number: '+18005550199' });
    expect(tollFree.json<{ data: PhoneNumber }>().data).toMatchObject({ type: 'tollfree', messagesPerSecond: 1, country: 'US' });
  });

  it('refuses a number held here or active elsewhere, a Twilio connection, a trial plan and bad input, and writes nothing', async () => {
    const { account, token } = await ownAccount();
    const connection = await insertConnection(h.database.db, account.id);
    const ours = await createPhoneNumber(h.database.db, account.id);
    const elsewhere = await createPhoneNumber(h.database.db, (await createAccount(h.database.db)).id);
    const refusals: [string, object, number, string][] = [
      [connection, { number: ours.number }, 409, PHONE_NUMBER_ALREADY_OURS_MESSAGE],
      [connection, { number: elsewhere.number }, 409, PHONE_NUMBER_TAKEN_MESSAGE],
      [await insertConnection(h.database.db, account.id, 'twilio'), { number: uniqueTestNumber() }, 422, PHONE_NUMBER_CONNECTION_NOT_SMPP_MESSAGE],
      [connection, { number: '+1 555' }, 400, 'number: Country or Number is not valid'],
      [connection, { number: uniqueTestNumber(), messagesPerSecond: 0 }, 400, 'messagesPerSecond: Messages per second must be between 1 and 1000'],
    ];
    for (const [id, body, status, message] of refusals) {
      const res = await h.call('POST', url(account.id, id), token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json<{ error: { message: string } }>().error.message).toBe(message);
    }
    const trial = await ownAccount({ planId: await ensureTestPlan(h.database.db, 'test-trial', true) });
    const trialConnection = await insertConnection(h.database.db, trial.account.id);
    const refused = await h.call('POST', url(trial.account.id, trialConnection), trial.token, { number: uniqueTestNumber() });
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ error: { message: string } }>().error.message).toBe(PHONE_NUMBERS_TRIAL_MESSAGE);
    for (const acc of [account.id, trial.account.id]) {
      const rows = await h.database.db.select({ id: phoneNumbers.id }).from(phoneNumbers).where(and(eq(phoneNumbers.accountId, acc), eq(phoneNumbers.carrier, 'smpp')));
      expect(rows).toEqual([]);
    }
  });

  it("answers 404 for another account's connection, an unknown and a malformed id", async () => {
    const mine = await ownAccount();
    const theirs = await ownAccount();
    const theirConnection = await insertConnection(h.database.db, theirs.account.id);
    for (const id of [theirConnection, randomUUID(), 'not-a-uuid']) {
      const res = await h.call('POST', url(mine.account.id, id), mine.token, { number: uniqueTestNumber() });
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toEqual({ error: { code: 'not_found', message: 'The carrier connection was not found.' } });
    }
    expect((await h.call('POST', url(theirs.account.id, theirConnection), mine.token, { number: uniqueTestNumber() })).statusCode).toBe(404);
    expect(await h.database.db.select().from(phoneNumbers).where(eq(phoneNumbers.accountId, theirs.account.id))).toEqual([]);
  });

  it('is for administrators only', async () => {
    const connection = await insertConnection(h.database.db, fixtures.accountId);
    for (const role of roles.filter((r) => r !== 'Administrator')) {
      const res = await h.call('POST', url(fixtures.accountId, connection), tokens[role], { number: uniqueTestNumber() });
      expect(res.statusCode, role).toBe(403);
    }
    expect((await h.call('POST', url(fixtures.accountId, connection), tokens.Administrator, { number: uniqueTestNumber() })).statusCode).toBe(201);
  });
});
