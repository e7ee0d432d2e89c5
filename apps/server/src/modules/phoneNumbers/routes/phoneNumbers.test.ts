import { createHash, randomUUID } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  PHONE_NUMBER_ACTIVE_ELSEWHERE_MESSAGE,
  PHONE_NUMBER_ALREADY_OURS_MESSAGE,
  PHONE_NUMBER_ALREADY_VERIFIED_MESSAGE,
  PHONE_NUMBER_NOT_FOR_SALE_MESSAGE,
  PHONE_NUMBER_TAKEN_MESSAGE,
  PHONE_NUMBERS_TRIAL_MESSAGE,
  VERIFICATION_CALL_TOO_SOON_MESSAGE,
  VERIFICATION_EXPIRED_MESSAGE,
  VERIFICATION_NO_CALL_MESSAGE,
  VERIFICATION_TOO_MANY_ATTEMPTS_MESSAGE,
  roles,
  type AvailableNumber,
  type HostedPhoneNumbersInput,
  type Pagination,
  type PhoneNumber,
  type VerificationCall,
} from '@parley/shared';
import { phoneNumbers, simulatorMessages } from '../../../platform/db/schema/index.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { createAccount, ensureTestPlan } from '../../../test/factories.js';
import { createPhoneNumber, uniqueTestNumber } from '../../../test/phoneNumbers.js';
import { useRouteHarness } from '../../../test/routeHarness.js';

const loa = (numbers: HostedPhoneNumbersInput['numbers'], overrides: Partial<HostedPhoneNumbersInput> = {}): HostedPhoneNumbersInput => ({
  businessName: 'Acme Dental',
  phoneNumberProvider: 'Old Telco',
  numbers,
  authorizingPerson: 'Ada Owner',
  email: 'Ada@Acme.example',
  address: '1 Main St',
  city: 'Springfield',
  state: 'IL',
  postalCode: '62701',
  ...overrides,
});

/** A valid US number written nationally, as a person types it: (415) 555-0123 style. */
const national = (e164: string): string => `(${e164.slice(2, 5)}) ${e164.slice(5, 8)}-${e164.slice(8)}`;

describe.each(testDatabaseKinds)('phone numbers on %s', (kind) => {
  const { h, fixtures, tokens, ownAccount } = useRouteHarness(kind);

  const url = (acc: string, rest = '') => `/v1/accounts/${acc}/phonenumbers${rest}`;
  const listOf = async (acc: string, token: string) =>
    (await h.call('GET', url(acc, '?limit=500'), token)).json<{ data: PhoneNumber[]; pagination: Pagination }>();
  const rowOf = async (id: string) => (await h.database.db.select().from(phoneNumbers).where(eq(phoneNumbers.id, id)))[0];

  /** What the virtual phone heard: the code of the latest verification call to the number. */
  async function codeHeardBy(number: string): Promise<string> {
    const [call] = await h.database.db
      .select()
      .from(simulatorMessages)
      .where(and(eq(simulatorMessages.kind, 'call'), eq(simulatorMessages.phoneNumber, number)))
      .orderBy(desc(simulatorMessages.createdAt), desc(simulatorMessages.id))
      .limit(1);
    if (!call) throw new Error(`no call to ${number}`);
    const digits = call.body.replace(/\D/g, '');
    expect(digits).toMatch(/^\d{6}$/);
    return digits;
  }

  async function hosted(acc: string, token: string, numbers: string[]): Promise<PhoneNumber[]> {
    const res = await h.call('POST', url(acc, '/hosted'), token, loa(numbers.map((number) => ({ country: 'US', number }))));
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ data: PhoneNumber[] }>().data;
  }

  const wrongCode = (code: string): string => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  it('offers the inventory, buys a number (active and verified at once), lists it and offers it no more', async () => {
    const { account, token } = await ownAccount();
    const offer = await h.call('GET', url(account.id, '/available?country=us&limit=3'), token);
    expect(offer.statusCode, offer.body).toBe(200);
    const available = offer.json<{ data: AvailableNumber[] }>().data;
    expect(available).toHaveLength(3);
    for (const n of available) expect(n).toEqual({ number: expect.stringMatching(/^\+1\d{10}$/) as string, country: 'US', capabilities: { sms: true, mms: true } });
    // Without a country: the account's default (US).
    const byDefault = await h.call('GET', url(account.id, '/available'), token);
    expect(byDefault.json<{ data: AvailableNumber[] }>().data.slice(0, 3)).toEqual(available);

    const [first] = available;
    if (!first) throw new Error('no number offered');
    const bought = await h.call('POST', url(account.id), token, { number: first.number, name: ' Front desk ' });
    expect(bought.statusCode, bought.body).toBe(201);
    const number = bought.json<{ data: PhoneNumber }>().data;
    expect(number).toEqual({
      id: expect.any(String) as string,
      name: 'Front desk',
      number: first.number,
      status: 'active',
      country: 'US',
      supportedDestinations: ['US'],
      hosted: false,
      verified: true,
      type: 'longcode',
      forwardTo: null,
      universalReply: false,
      carrier: 'simulator',
      // The simulator's settings: 10 a second until someone changes them.
      messagesPerSecond: 10,
      created: { at: expect.any(String) as string },
    });
    expect((await rowOf(number.id))?.carrierNumberId).toBe(`sim-${first.number}`);
    expect(await listOf(account.id, token)).toEqual({ data: [number], pagination: { totalCount: 1, offset: 0, limit: 500 } });
    expect((await h.call('GET', url(account.id, `/${number.id}`), token)).json()).toEqual({ data: number });
    const after = (await h.call('GET', url(account.id, '/available?country=US&limit=3'), token)).json<{ data: AvailableNumber[] }>().data;
    expect(after.map((n) => n.number)).not.toContain(first.number);
    // Bought numbers need no verification call.
    const call = await h.call('GET', url(account.id, `/${number.id}/verify`), token);
    expect(call.statusCode).toBe(409);
    expect(call.json()).toEqual({ error: { code: 'conflict', message: PHONE_NUMBER_ALREADY_VERIFIED_MESSAGE } });
  });

  it('refuses to buy a number another account holds, one it holds, one not for sale, and bad input', async () => {
    const mine = await ownAccount();
    const theirs = await ownAccount();
    const [a, b] = (await h.call('GET', url(theirs.account.id, '/available?country=CA&limit=2'), theirs.token)).json<{ data: AvailableNumber[] }>().data;
    if (!a || !b) throw new Error('no numbers offered');
    expect((await h.call('POST', url(theirs.account.id), theirs.token, { number: a.number })).statusCode).toBe(201);
    expect((await h.call('POST', url(mine.account.id), mine.token, { number: b.number })).statusCode).toBe(201);

    const cases: [object, number, string][] = [
      [{ number: a.number }, 409, PHONE_NUMBER_TAKEN_MESSAGE],
      [{ number: b.number }, 409, PHONE_NUMBER_ALREADY_OURS_MESSAGE],
      [{ number: uniqueTestNumber() }, 409, PHONE_NUMBER_NOT_FOR_SALE_MESSAGE],
      [{}, 400, 'number: Number is missing'],
      [{ number: '' }, 400, 'number: Number is missing'],
      [{ number: '4155552671' }, 400, 'number: Country or Number is not valid'],
      [{ number: 'call me' }, 400, 'number: Country or Number is not valid'],
      [{ number: b.number, name: 'x'.repeat(101) }, 400, 'name: At most 100 characters'],
    ];
    for (const [body, status, message] of cases) {
      const res = await h.call('POST', url(mine.account.id), mine.token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json<{ error: { message: string } }>().error.message).toBe(message);
    }
    for (const query of ['country=XX', 'limit=0', 'limit=101', 'limit=abc']) {
      expect((await h.call('GET', url(mine.account.id, `/available?${query}`), mine.token)).statusCode, query).toBe(400);
    }
    expect((await listOf(mine.account.id, mine.token)).data.map((n) => n.number)).toEqual([b.number]);
    expect((await listOf(theirs.account.id, theirs.token)).data.map((n) => n.number)).toEqual([a.number]);
  });

  it('refuses buying and hosting on a trial plan (403) and adds nothing', async () => {
    const trial = await ensureTestPlan(h.database.db, 'test-trial', true);
    const { account, token } = await ownAccount({ planId: trial });
    const [offered] = (await h.call('GET', url(account.id, '/available'), token)).json<{ data: AvailableNumber[] }>().data;
    if (!offered) throw new Error('no number offered');
    for (const res of [
      await h.call('POST', url(account.id), token, { number: offered.number }),
      await h.call('POST', url(account.id, '/hosted'), token, loa([{ country: 'US', number: uniqueTestNumber() }])),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: { code: 'forbidden', message: PHONE_NUMBERS_TRIAL_MESSAGE } });
    }
    expect((await listOf(account.id, token)).pagination.totalCount).toBe(0);
  });

  it('hosts numbers from the letter of authorisation, unverified, and keeps the letter', async () => {
    const { account, admin, token } = await ownAccount();
    const one = uniqueTestNumber();
    const two = uniqueTestNumber();
    const res = await h.call(
      'POST',
      url(account.id, '/hosted'),
      token,
      loa([
        { country: 'us', number: national(one) },
        { country: 'US', number: two },
        { country: 'US', number: one },
      ]),
    );
    expect(res.statusCode, res.body).toBe(201);
    const added = res.json<{ data: PhoneNumber[] }>().data;
    expect(added.map((n) => n.number)).toEqual([one, two]);
    for (const n of added) {
      expect(n).toMatchObject({ status: 'unverified', hosted: true, verified: false, country: 'US', carrier: 'simulator', name: '' });
    }
    const row = await rowOf(added[0]?.id ?? '');
    expect(row?.loa).toMatchObject({
      businessName: 'Acme Dental',
      phoneNumberProvider: 'Old Telco',
      numbers: [one, two],
      authorizingPerson: 'Ada Owner',
      email: 'ada@acme.example',
      postalCode: '62701',
      submittedBy: admin.id,
    });
    expect((await listOf(account.id, token)).data.map((n) => n.id)).toEqual(added.map((n) => n.id));
    // The same number again is refused, and nothing is added.
    const again = await h.call('POST', url(account.id, '/hosted'), token, loa([{ country: 'US', number: uniqueTestNumber() }, { country: 'US', number: two }]));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: { code: 'conflict', message: `${two}: ${PHONE_NUMBER_ALREADY_OURS_MESSAGE}` } });
    expect((await listOf(account.id, token)).pagination.totalCount).toBe(2);
  });

  it('refuses a letter with a missing field or a bad number, naming each, and adds nothing', async () => {
    const { account, token } = await ownAccount();
    const good = [{ country: 'US', number: uniqueTestNumber() }];
    const cases: [object, string][] = [
      [{}, 'businessName: Required'],
      [loa(good, { businessName: '  ' }), 'businessName: Required'],
      [loa(good, { phoneNumberProvider: '' }), 'phoneNumberProvider: Required'],
      [loa(good, { authorizingPerson: '' }), 'authorizingPerson: Required'],
      [loa(good, { email: '' }), 'email: Required'],
      [loa(good, { email: 'ada@' }), 'email: Invalid email address'],
      [loa(good, { address: '' }), 'address: Required'],
      [loa(good, { city: '' }), 'city: Required'],
      [loa(good, { state: '' }), 'state: Required'],
      [loa(good, { postalCode: '' }), 'postalCode: Required'],
      [loa([]), 'numbers: Required'],
      [loa([{ country: 'US', number: '' }]), 'numbers.0.number: Number is missing'],
      [loa([{ country: 'XX', number: '4155550123' }]), 'numbers.0.number: Country is not valid'],
      [loa([...good, { country: 'GB', number: '4155550123' }]), 'numbers.1.number: Country or Number is not valid'],
    ];
    for (const [body, message] of cases) {
      const res = await h.call('POST', url(account.id, '/hosted'), token, body);
      expect(res.statusCode, message).toBe(400);
      expect(res.json<{ error: { code: string; message: string } }>().error).toMatchObject({
        code: 'validation_failed',
        message: expect.stringContaining(message) as string,
      });
    }
    // Every field of an empty letter is named.
    const empty = (await h.call('POST', url(account.id, '/hosted'), token, {})).json<{ error: { message: string } }>().error.message;
    for (const field of ['businessName', 'phoneNumberProvider', 'numbers', 'authorizingPerson', 'email', 'address', 'city', 'state', 'postalCode']) {
      expect(empty).toContain(`${field}: Required`);
    }
    expect((await listOf(account.id, token)).pagination.totalCount).toBe(0);
  });

  it('verifies a hosted number by call: 429 within the minute, 5 wrong codes at most, the right code activates it', async () => {
    const { account, token } = await ownAccount();
    const [number] = await hosted(account.id, token, [uniqueTestNumber()]);
    if (!number) throw new Error('not hosted');
    const verifyUrl = url(account.id, `/${number.id}/verify`);

    const early = await h.call('POST', verifyUrl, token, { code: '123456' });
    expect(early.statusCode).toBe(400);
    expect(early.json()).toEqual({ error: { code: 'bad_request', message: VERIFICATION_NO_CALL_MESSAGE } });

    const call = await h.call('GET', verifyUrl, token);
    expect(call.statusCode, call.body).toBe(200);
    const placed = call.json<{ data: VerificationCall }>().data;
    expect(placed.id).toBe(number.id);
    expect(placed.number).toBe(number.number);
    const ttl = new Date(placed.expiresAt).getTime() - Date.now();
    expect(ttl).toBeGreaterThan(9 * 60_000);
    expect(ttl).toBeLessThanOrEqual(10 * 60_000 + 1000);
    const code = await codeHeardBy(number.number);
    // Only the code's hash is kept.
    const stored = await rowOf(number.id);
    expect(stored?.verificationCodeHash).toBe(createHash('sha256').update(code).digest('hex'));
    expect(JSON.stringify(stored)).not.toContain(`"${code}"`);

    const tooSoon = await h.call('GET', verifyUrl, token);
    expect(tooSoon.statusCode).toBe(429);
    expect(tooSoon.json()).toEqual({ error: { code: 'rate_limited', message: VERIFICATION_CALL_TOO_SOON_MESSAGE } });
    expect(await codeHeardBy(number.number)).toBe(code);

    for (const left of [4, 3, 2, 1, 0]) {
      const wrong = await h.call('POST', verifyUrl, token, { code: wrongCode(code) });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json<{ error: { message: string } }>().error.message).toBe(
        left === 0 ? 'The code is not correct. Request a new call.' : `The code is not correct. ${left} ${left === 1 ? 'attempt' : 'attempts'} left.`,
      );
    }
    // The right code is refused too once 5 wrong ones were tried.
    const locked = await h.call('POST', verifyUrl, token, { code });
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({ error: { code: 'rate_limited', message: VERIFICATION_TOO_MANY_ATTEMPTS_MESSAGE } });
    expect(await rowOf(number.id)).toMatchObject({ status: 'unverified', verifiedAt: null });
    expect((await h.call('POST', verifyUrl, token, { code: '12345' })).json()).toMatchObject({
      error: { code: 'validation_failed', message: 'code: Enter the 6-digit code' },
    });

    // A minute later a new call, with a new code.
    await h.database.db.execute(sql`update phone_numbers set verification_requested_at = now() - interval '61 seconds' where id = ${number.id}`);
    expect((await h.call('GET', verifyUrl, token)).statusCode).toBe(200);
    const fresh = await codeHeardBy(number.number);
    const verified = await h.call('POST', verifyUrl, token, { code: fresh });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json<{ data: PhoneNumber }>().data).toMatchObject({ id: number.id, status: 'active', verified: true, hosted: true });
    expect(await rowOf(number.id)).toMatchObject({ verificationCodeHash: null, verificationExpiresAt: null });
    for (const res of [await h.call('GET', verifyUrl, token), await h.call('POST', verifyUrl, token, { code: fresh })]) {
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ error: { code: 'conflict', message: PHONE_NUMBER_ALREADY_VERIFIED_MESSAGE } });
    }
    expect((await listOf(account.id, token)).data).toEqual([expect.objectContaining({ id: number.id, status: 'active', verified: true })]);
  });

  it('refuses an expired code, and a number that became active in another account meanwhile (409)', async () => {
    const { account, token } = await ownAccount();
    const [expiring, contested] = await hosted(account.id, token, [uniqueTestNumber(), uniqueTestNumber()]);
    if (!expiring || !contested) throw new Error('not hosted');

    expect((await h.call('GET', url(account.id, `/${expiring.id}/verify`), token)).statusCode).toBe(200);
    const code = await codeHeardBy(expiring.number);
    await h.database.db.execute(sql`update phone_numbers set verification_expires_at = now() - interval '1 second' where id = ${expiring.id}`);
    const late = await h.call('POST', url(account.id, `/${expiring.id}/verify`), token, { code });
    expect(late.statusCode).toBe(400);
    expect(late.json()).toEqual({ error: { code: 'bad_request', message: VERIFICATION_EXPIRED_MESSAGE } });
    expect(await rowOf(expiring.id)).toMatchObject({ status: 'unverified', verifiedAt: null });

    expect((await h.call('GET', url(account.id, `/${contested.id}/verify`), token)).statusCode).toBe(200);
    const contestedCode = await codeHeardBy(contested.number);
    const other = await createAccount(h.database.db);
    await createPhoneNumber(h.database.db, other.id, { number: contested.number });
    const taken = await h.call('POST', url(account.id, `/${contested.id}/verify`), token, { code: contestedCode });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ error: { code: 'conflict', message: PHONE_NUMBER_ACTIVE_ELSEWHERE_MESSAGE } });
    expect(await rowOf(contested.id)).toMatchObject({ status: 'unverified', verifiedAt: null });
    // No call is placed for a number active elsewhere either.
    await h.database.db.execute(sql`update phone_numbers set verification_requested_at = null where id = ${contested.id}`);
    const noCall = await h.call('GET', url(account.id, `/${contested.id}/verify`), token);
    expect(noCall.statusCode).toBe(409);
    expect(noCall.json()).toEqual({ error: { code: 'conflict', message: PHONE_NUMBER_ACTIVE_ELSEWHERE_MESSAGE } });
  });

  it('says clearly when the carrier of a number cannot place the call (422)', async () => {
    const { account, token } = await ownAccount();
    const smpp = await createPhoneNumber(h.database.db, account.id, { carrier: 'smpp', status: 'unverified', hosted: true, verifiedAt: null });
    const res = await h.call('GET', url(account.id, `/${smpp.id}/verify`), token);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      error: { code: 'bad_request', message: 'The number cannot be verified: the smpp carrier is not configured for this deployment.' },
    });
    expect(await rowOf(smpp.id)).toMatchObject({ verificationCodeHash: null, verificationRequestedAt: null });
  });

  it('configures forwarding, universal reply and the name; bad input changes nothing', async () => {
    const { account, token } = await ownAccount();
    const own = await createPhoneNumber(h.database.db, account.id);
    const numberUrl = url(account.id, `/${own.id}`);
    const forward = uniqueTestNumber();
    const res = await h.call('PUT', numberUrl, token, { forwardTo: ` ${national(forward).replace('(', '+1 (')} `, universalReply: true, name: 'Main line' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ data: PhoneNumber }>().data).toMatchObject({ forwardTo: forward, universalReply: true, name: 'Main line' });
    // What is not sent stays.
    expect((await h.call('PUT', numberUrl, token, { universalReply: false })).json()).toMatchObject({
      data: { forwardTo: forward, universalReply: false, name: 'Main line' },
    });
    const cases: [object, string][] = [
      [{ forwardTo: 'not a number' }, 'forwardTo: Country or Number is not valid'],
      [{ forwardTo: '4155550123' }, 'forwardTo: Country or Number is not valid'],
      [{ forwardTo: own.number }, 'forwardTo: A number cannot forward to itself'],
      [{ universalReply: 'yes' }, 'universalReply: Must be true or false'],
      [{ name: 'x'.repeat(101) }, 'name: At most 100 characters'],
    ];
    for (const [body, message] of cases) {
      const bad = await h.call('PUT', numberUrl, token, body);
      expect(bad.statusCode, message).toBe(400);
      expect(bad.json<{ error: { message: string } }>().error.message).toBe(message);
    }
    expect(await rowOf(own.id)).toMatchObject({ forwardTo: forward, universalReply: false, name: 'Main line' });
    for (const off of ['', null]) {
      const cleared = await h.call('PUT', numberUrl, token, { forwardTo: off });
      expect(cleared.json()).toMatchObject({ data: { forwardTo: null } });
      await h.call('PUT', numberUrl, token, { forwardTo: forward });
    }
  });

  it('pages the list, accepts the admin flag and leaves released numbers out', async () => {
    const { account, token } = await ownAccount();
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await createPhoneNumber(h.database.db, account.id));
    const released = await createPhoneNumber(h.database.db, account.id, { status: 'released' });
    const page = await h.call('GET', url(account.id, '?limit=2&offset=1&admin=true'), token);
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ pagination: { totalCount: 3, offset: 1, limit: 2 } });
    expect(page.json<{ data: PhoneNumber[] }>().data.map((n) => n.id)).toEqual(made.slice(1).map((n) => n.id));
    expect((await h.call('GET', url(account.id), token)).json()).toMatchObject({ pagination: { totalCount: 3, offset: 0, limit: 10 } });
    for (const query of ['limit=0', 'limit=501', 'offset=-1', 'admin=maybe']) {
      expect((await h.call('GET', url(account.id, `?${query}`), token)).statusCode, query).toBe(400);
    }
    for (const res of [
      await h.call('GET', url(account.id, `/${released.id}`), token),
      await h.call('PUT', url(account.id, `/${released.id}`), token, { universalReply: true }),
      await h.call('GET', url(account.id, `/${released.id}/verify`), token),
    ]) {
      expect(res.statusCode).toBe(404);
    }
  });

  it('lets every role read numbers and only administrators add, configure or verify them', async () => {
    const number = await createPhoneNumber(h.database.db, fixtures.accountId);
    const unverified = await createPhoneNumber(h.database.db, fixtures.accountId, { status: 'unverified', hosted: true, verifiedAt: null });
    for (const role of roles) {
      const token = tokens[role];
      expect((await h.call('GET', url(fixtures.accountId), token)).statusCode, role).toBe(200);
      expect((await h.call('GET', url(fixtures.accountId, `/${number.id}`), token)).statusCode, role).toBe(200);
      if (role === 'Administrator') continue;
      for (const res of [
        await h.call('GET', url(fixtures.accountId, '/available'), token),
        await h.call('POST', url(fixtures.accountId), token, { number: uniqueTestNumber() }),
        await h.call('POST', url(fixtures.accountId, '/hosted'), token, loa([{ country: 'US', number: uniqueTestNumber() }])),
        await h.call('PUT', url(fixtures.accountId, `/${number.id}`), token, { universalReply: true }),
        await h.call('GET', url(fixtures.accountId, `/${unverified.id}/verify`), token),
        await h.call('POST', url(fixtures.accountId, `/${unverified.id}/verify`), token, { code: '123456' }),
      ]) {
        expect(res.statusCode, `${role} ${res.body}`).toBe(403);
      }
    }
    expect(await rowOf(number.id)).toMatchObject({ universalReply: false });
    expect(await rowOf(unverified.id)).toMatchObject({ verificationRequestedAt: null });
    expect((await listOf(fixtures.accountId, tokens.ReadOnly)).data.map((n) => n.id)).toEqual([number.id, unverified.id]);
    // The administrator may.
    expect((await h.call('GET', url(fixtures.accountId, '/available'), tokens.Administrator)).statusCode).toBe(200);
    expect((await h.call('PUT', url(fixtures.accountId, `/${number.id}`), tokens.Administrator, { universalReply: true })).statusCode).toBe(200);
  });

  it("answers 404 for another account's number, an unknown and a malformed id, and leaves it alone", async () => {
    const mine = await ownAccount();
    const theirs = await ownAccount();
    const [theirNumber] = await hosted(theirs.account.id, theirs.token, [uniqueTestNumber()]);
    if (!theirNumber) throw new Error('not hosted');
    for (const id of [theirNumber.id, randomUUID(), 'not-a-uuid']) {
      for (const res of [
        await h.call('GET', url(mine.account.id, `/${id}`), mine.token),
        await h.call('PUT', url(mine.account.id, `/${id}`), mine.token, { universalReply: true, forwardTo: uniqueTestNumber() }),
        await h.call('GET', url(mine.account.id, `/${id}/verify`), mine.token),
        await h.call('POST', url(mine.account.id, `/${id}/verify`), mine.token, { code: '123456' }),
      ]) {
        expect(res.statusCode, id).toBe(404);
        expect(res.json()).toEqual({ error: { code: 'not_found', message: 'The phone number was not found.' } });
      }
    }
    expect((await h.call('GET', url(theirs.account.id), mine.token)).statusCode).toBe(404);
    expect(await rowOf(theirNumber.id)).toMatchObject({
      universalReply: false,
      forwardTo: null,
      verificationRequestedAt: null,
      verificationAttempts: 0,
    });
    expect((await listOf(mine.account.id, mine.token)).pagination.totalCount).toBe(0);
  });
});
