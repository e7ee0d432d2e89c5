import { and, eq, sql } from 'drizzle-orm';
import twilio from 'twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALL_DESTINATION_INVALID_MESSAGE, CALL_NO_MOBILE_MESSAGE, CALL_NO_VOICE_MESSAGE, type Call, type SimulatorMessage } from '@parley/shared';
import { TwilioApiPeer } from '../carriers/twilio/test/testTwilioPeer.js';
import { calls, users } from '../../platform/db/schema/index.js';
import { testDatabaseKinds } from '../../test/databases.js';
import { createPhoneNumber, uniqueTestNumber } from '../../test/phoneNumbers.js';
import { useRouteHarness } from '../../test/routeHarness.js';

/*
 * Click-to-call (docs/calls.md) against the local Twilio peer: the Calls API request rings the user's own
 * mobile from the account's number with TwiML dialling the contact; Twilio's signed status callbacks move
 * the call on; a forged one is refused.
 */

const PUBLIC_URL = 'https://sms.example.test';
const accountSid = 'AC00000000000000000000000000000007';
const authToken = '00112233445566778899aabbccddeeff';
const userMobile = '+14155552671';

const sign = (url: string, params: Record<string, string>): string => twilio.getExpectedTwilioSignature(authToken, url, params);

describe.each(testDatabaseKinds)('click-to-call on %s', (kind) => {
  const peer = new TwilioApiPeer(accountSid, authToken);
  const env: Record<string, string> = {
    PUBLIC_URL,
    TWILIO_ACCOUNT_SID: accountSid,
    TWILIO_AUTH_TOKEN: authToken,
    SMPP_URL: 'smpp://parley:secret@127.0.0.1:2775',
  };
  beforeAll(async () => {
    env.TWILIO_API_BASE_URL = await peer.start();
  });
  afterAll(async () => {
    await peer.close();
  });
  const harness = useRouteHarness(kind, { env });
  const { h, fixtures, tokens } = harness;
  const url = () => `/v1/accounts/${fixtures.accountId}/calls`;

  beforeAll(async () => {
    await h.database.db.update(users).set({ mobileNumber: userMobile, mobileCountry: 'US' }).where(sql`${users.id} in (${fixtures.users.Sender}, ${fixtures.users.Administrator})`);
  });

  const postSigned = (path: string, params: Record<string, string>, signature = sign(`${PUBLIC_URL}${path}`, params)) =>
    h.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
      payload: new URLSearchParams(params).toString(),
    });

  const stored = async (externalId: string) =>
    (await h.database.db.select().from(calls).where(and(eq(calls.accountId, fixtures.accountId), eq(calls.externalId, externalId))))[0];

  it('rings the user’s mobile from the account’s number, dials the contact, and follows the signed callbacks', async () => {
    const number = await createPhoneNumber(h.database.db, fixtures.accountId, { carrier: 'twilio' });
    const contact = uniqueTestNumber();
    const res = await h.call('POST', url(), tokens.Sender, { destination: contact, from: { id: number.id } });
    expect(res.statusCode, res.body).toBe(201);
    const call = res.json<{ data: Call }>().data;
    expect(call).toMatchObject({ direction: 'outbound', status: 'inProgress', source: 'parley', from: number.number, to: contact });

    const request = peer.requests.filter((r) => r.path.endsWith('/Calls.json')).at(-1);
    expect(request?.form.get('To')).toBe(userMobile);
    expect(request?.form.get('From')).toBe(number.number);
    const row = await h.database.db.select().from(calls).where(eq(calls.id, call.id));
    const externalId = row[0]?.externalId ?? '';
    const callback = `${PUBLIC_URL}/v1/carriers/twilio/calls/status?account=${fixtures.accountId}&call=${externalId}`;
    expect(request?.form.get('StatusCallback')).toBe(callback);
    // The TwiML is what Twilio's own library writes for the same Dial.
    const expected = new twilio.twiml.VoiceResponse();
    expected.dial({ callerId: number.number, action: callback, method: 'POST' }).number(contact);
    expect(request?.form.get('Twiml')).toBe(expected.toString());

    const path = callback.slice(PUBLIC_URL.length);
    const forged = await postSigned(path, { CallSid: 'CA1', DialCallStatus: 'completed', DialCallDuration: '99' }, 'forged');
    expect(forged.statusCode).toBe(401);
    expect((await stored(externalId))?.status).toBe('inProgress');

    const dialled = await postSigned(path, { CallSid: 'CA1', CallStatus: 'in-progress', DialCallStatus: 'completed', DialCallDuration: '42' });
    expect(dialled.statusCode, dialled.body).toBe(200);
    expect(dialled.body).toBe(new twilio.twiml.VoiceResponse().toString());
    const ended = await postSigned(path, { CallSid: 'CA1', CallStatus: 'completed', CallDuration: '50' });
    expect(ended.statusCode).toBe(200);
    expect(await stored(externalId)).toMatchObject({ status: 'answered', durationSeconds: 42 });

    // A call of another account is not reached through this account's id.
    const other = await postSigned(`/v1/carriers/twilio/calls/status?account=${fixtures.accountId}&call=nope`, { CallSid: 'CA1', CallStatus: 'busy' });
    expect(other.statusCode).toBe(404);
  });

  it('records a call the user’s own phone never took as failed', async () => {
    const number = await createPhoneNumber(h.database.db, fixtures.accountId, { carrier: 'twilio' });
    const res = await h.call('POST', url(), tokens.Administrator, { destination: uniqueTestNumber(), from: { id: number.id } });
    expect(res.statusCode, res.body).toBe(201);
    const [row] = await h.database.db.select().from(calls).where(eq(calls.id, res.json<{ data: Call }>().data.id));
    const path = `/v1/carriers/twilio/calls/status?account=${fixtures.accountId}&call=${row?.externalId ?? ''}`;
    expect((await postSigned(path, { CallSid: 'CA2', CallStatus: 'no-answer' })).statusCode).toBe(200);
    expect((await stored(row?.externalId ?? ''))?.status).toBe('failed');
  });

  it('on the simulator, shows the call on the user’s and the contact’s virtual phones; Decline ends it not answered', async () => {
    const number = await createPhoneNumber(h.database.db, fixtures.accountId);
    const contact = uniqueTestNumber();
    const res = await h.call('POST', url(), tokens.Sender, { destination: contact, from: { id: number.id } });
    expect(res.statusCode, res.body).toBe(201);
    const base = `/v1/accounts/${fixtures.accountId}/simulator/phones`;
    const legs = async (phone: string) => (await h.call('GET', `${base}/${phone}/messages`, tokens.Sender)).json<{ data: SimulatorMessage[] }>().data.filter((m) => m.kind === 'call');
    expect((await legs(userMobile)).at(-1)).toMatchObject({ status: 'talking', businessNumber: number.number, body: `Parley is connecting you to ${contact}` });
    const [ringing] = await legs(contact);
    expect(ringing).toMatchObject({ status: 'ringing', body: `Incoming call from ${number.number}` });
    const declined = await h.call('POST', `${base}/${contact}/calls/${ringing?.id ?? ''}`, tokens.Sender, { action: 'decline' });
    expect(declined.statusCode, declined.body).toBe(200);
    const [row] = await h.database.db.select().from(calls).where(eq(calls.id, res.json<{ data: Call }>().data.id));
    expect(row).toMatchObject({ status: 'missed', direction: 'outbound' });
  });

  it('refuses a number without voice, a user without a mobile, a bad destination and the Read Only role', async () => {
    const twilioNumber = await createPhoneNumber(h.database.db, fixtures.accountId, { carrier: 'twilio' });
    const smppNumber = await createPhoneNumber(h.database.db, fixtures.accountId, { carrier: 'smpp' });
    const before = peer.requests.length;
    const noVoice = await h.call('POST', url(), tokens.Sender, { destination: uniqueTestNumber(), from: { id: smppNumber.id } });
    expect(noVoice.statusCode).toBe(422);
    expect(noVoice.json()).toMatchObject({ error: { message: CALL_NO_VOICE_MESSAGE } });
    const noMobile = await h.call('POST', url(), tokens.CampaignManager, { destination: uniqueTestNumber(), from: { id: twilioNumber.id } });
    expect(noMobile.statusCode).toBe(422);
    expect(noMobile.json()).toMatchObject({ error: { message: CALL_NO_MOBILE_MESSAGE } });
    const invalid = await h.call('POST', url(), tokens.Sender, { destination: '12', from: { id: twilioNumber.id } });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({ error: { message: CALL_DESTINATION_INVALID_MESSAGE } });
    const readOnly = await h.call('POST', url(), tokens.ReadOnly, { destination: uniqueTestNumber(), from: { id: twilioNumber.id } });
    expect(readOnly.statusCode).toBe(403);
    const { ownAccount } = harness;
    const foreign = await ownAccount();
    const elsewhere = await h.call('POST', url(), tokens.Sender, { destination: uniqueTestNumber(), from: { id: (await createPhoneNumber(h.database.db, foreign.account.id, { carrier: 'twilio' })).id } });
    expect(elsewhere.statusCode).toBe(404);
    expect(peer.requests.length).toBe(before);
  });
});
