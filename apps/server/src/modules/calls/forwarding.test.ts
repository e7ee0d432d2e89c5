import { and, eq } from 'drizzle-orm';
import twilio from 'twilio';
import { describe, expect, it } from 'vitest';
import type { SimulatorMessage } from '@parley/shared';
import { calls, conversations, phoneNumbers } from '../../platform/db/schema/index.js';
import { testDatabaseKinds } from '../../test/databases.js';
import { createPhoneNumber, uniqueTestNumber } from '../../test/phoneNumbers.js';
import { useRouteHarness } from '../../test/routeHarness.js';
import { NO_FORWARD_SPOKEN } from './incomingCall.js';

/*
 * Forwarding (docs/calls.md): a call to an account's number goes to its forwardTo, recorded in the caller's
 * conversation; without forwardTo the caller hears a short message and the call is recorded missed. On
 * Twilio (signed voice webhooks) and on the simulator (a virtual phone calls the number).
 */

const PUBLIC_URL = 'https://sms.example.test';
const accountSid = 'AC00000000000000000000000000000008';
const authToken = 'ffeeddccbbaa99887766554433221100';

describe.each(testDatabaseKinds)('call forwarding on %s', (kind) => {
  const { h, fixtures, tokens } = useRouteHarness(kind, { env: { PUBLIC_URL, TWILIO_ACCOUNT_SID: accountSid, TWILIO_AUTH_TOKEN: authToken } });

  const post = (path: string, params: Record<string, string>, signature = twilio.getExpectedTwilioSignature(authToken, `${PUBLIC_URL}${path}`, params)) =>
    h.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
      payload: new URLSearchParams(params).toString(),
    });
  const callOf = async (externalId: string) =>
    (await h.database.db.select().from(calls).where(and(eq(calls.accountId, fixtures.accountId), eq(calls.externalId, externalId))))[0];

  it('forwards a Twilio call to forwardTo, showing the caller, and records how the forwarded leg ended', async () => {
    const forwardTo = uniqueTestNumber();
    const number = await createPhoneNumber(h.database.db, fixtures.accountId, { carrier: 'twilio', forwardTo });
    const caller = uniqueTestNumber();
    const params = { AccountSid: accountSid, CallSid: 'CA00000000000000000000000000000101', From: caller, To: number.number, CallStatus: 'ringing', Direction: 'inbound' };
    const forged = await post('/v1/carriers/twilio/voice', params, 'forged');
    expect(forged.statusCode).toBe(401);
    expect(await callOf(params.CallSid)).toBeUndefined();

    const res = await post('/v1/carriers/twilio/voice', params);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/xml/);
    const action = `${PUBLIC_URL}/v1/carriers/twilio/calls/status?account=${fixtures.accountId}&call=${params.CallSid}`;
    const expected = new twilio.twiml.VoiceResponse();
    expected.dial({ callerId: caller, action, method: 'POST' }).number(forwardTo);
    expect(res.body).toBe(expected.toString());
    const call = await callOf(params.CallSid);
    expect(call).toMatchObject({ direction: 'inbound', status: 'inProgress', source: 'twilio', fromNumber: caller, toNumber: number.number });
    const [conversation] = await h.database.db.select().from(conversations).where(eq(conversations.id, call?.conversationId ?? ''));
    expect(conversation?.phoneNumberId).toBe(number.id);

    const dialled = await post(action.slice(PUBLIC_URL.length), { CallSid: params.CallSid, DialCallStatus: 'no-answer', DialCallDuration: '0' });
    expect(dialled.statusCode).toBe(200);
    expect((await callOf(params.CallSid))?.status).toBe('missed');
  });

  it('answers a call to a number without forwardTo with a short message and records it missed', async () => {
    const number = await createPhoneNumber(h.database.db, fixtures.accountId, { carrier: 'twilio' });
    const params = { AccountSid: accountSid, CallSid: 'CA00000000000000000000000000000102', From: uniqueTestNumber(), To: number.number, CallStatus: 'ringing' };
    const res = await post('/v1/carriers/twilio/voice', params);
    expect(res.statusCode).toBe(200);
    const expected = new twilio.twiml.VoiceResponse();
    expected.say(NO_FORWARD_SPOKEN);
    expected.hangup();
    expect(res.body).toBe(expected.toString());
    expect(await callOf(params.CallSid)).toMatchObject({ direction: 'inbound', status: 'missed' });
  });

  it('rings the forwardTo virtual phone when a virtual phone calls a simulator number; Answer and Hang up end it answered', async () => {
    const forwardTo = uniqueTestNumber();
    const number = await createPhoneNumber(h.database.db, fixtures.accountId, { forwardTo });
    const caller = uniqueTestNumber();
    const base = `/v1/accounts/${fixtures.accountId}/simulator/phones`;
    const placed = await h.call('POST', `${base}/${caller}/calls`, tokens.Sender, { to: number.number });
    expect(placed.statusCode, placed.body).toBe(201);
    expect(placed.json<{ data: SimulatorMessage }>().data).toMatchObject({ kind: 'call', phoneNumber: caller, status: 'talking' });

    const thread = await h.call('GET', `${base}/${forwardTo}/messages`, tokens.Sender);
    const ringing = thread.json<{ data: SimulatorMessage[] }>().data.find((m) => m.kind === 'call');
    expect(ringing).toMatchObject({ status: 'ringing', businessNumber: number.number, body: `Forwarded call from ${caller}` });
    const readOnly = await h.call('POST', `${base}/${forwardTo}/calls/${ringing?.id ?? ''}`, tokens.ReadOnly, { action: 'answer' });
    expect(readOnly.statusCode).toBe(403);
    const answered = await h.call('POST', `${base}/${forwardTo}/calls/${ringing?.id ?? ''}`, tokens.Sender, { action: 'answer' });
    expect(answered.json<{ data: SimulatorMessage }>().data.status).toBe('talking');
    const again = await h.call('POST', `${base}/${forwardTo}/calls/${ringing?.id ?? ''}`, tokens.Sender, { action: 'answer' });
    expect(again.statusCode).toBe(409);
    const hungUp = await h.call('POST', `${base}/${forwardTo}/calls/${ringing?.id ?? ''}`, tokens.Sender, { action: 'hangUp' });
    expect(hungUp.json<{ data: SimulatorMessage }>().data.status).toBe('ended');

    const [call] = await h.database.db.select().from(calls).where(and(eq(calls.accountId, fixtures.accountId), eq(calls.phoneNumberId, number.id)));
    expect(call).toMatchObject({ direction: 'inbound', status: 'answered', source: 'parley', fromNumber: caller });
  });

  it('records a missed call when a virtual phone calls a simulator number that forwards nowhere', async () => {
    const number = await createPhoneNumber(h.database.db, fixtures.accountId);
    await h.database.db.update(phoneNumbers).set({ forwardTo: null }).where(eq(phoneNumbers.id, number.id));
    const caller = uniqueTestNumber();
    const placed = await h.call('POST', `/v1/accounts/${fixtures.accountId}/simulator/phones/${caller}/calls`, tokens.Sender, { to: number.number });
    expect(placed.json<{ data: SimulatorMessage }>().data).toMatchObject({ status: 'ended' });
    const [call] = await h.database.db.select().from(calls).where(and(eq(calls.accountId, fixtures.accountId), eq(calls.phoneNumberId, number.id)));
    expect(call?.status).toBe('missed');
  });
});
