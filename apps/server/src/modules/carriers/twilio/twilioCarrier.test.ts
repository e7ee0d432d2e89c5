import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { OutboundMessage } from '../carrier.js';
import { TwilioCarrier, verificationTwiml } from './twilioCarrier.js';
import { TwilioApiError } from './twilioRest.js';
import { TwilioApiPeer } from './test/testTwilioPeer.js';

const accountSid = 'AC00000000000000000000000000000001';
const authToken = 'test-auth-token-0123456789abcdef';
const statusCallbackUrl = 'https://sms.example.test/webhooks/twilio/status';
const inboundUrl = 'https://sms.example.test/webhooks/twilio/inbound';

function message(overrides: Partial<OutboundMessage> = {}): OutboundMessage {
  return {
    id: 'msg-1',
    accountId: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
    from: '+15005550006',
    to: '+14155550123',
    text: 'Your appointment is tomorrow at 9:00.',
    encoding: 'GSM-7',
    segments: 1,
    media: [],
    ...overrides,
  };
}

describe('TwilioCarrier against a local Twilio API peer', () => {
  const peer = new TwilioApiPeer(accountSid, authToken);
  let carrier: TwilioCarrier;
  let apiBaseUrl: string;

  beforeAll(async () => {
    apiBaseUrl = await peer.start();
    carrier = new TwilioCarrier({ accountSid, authToken, apiBaseUrl, statusCallbackUrl, inboundUrl, voiceUrl: `${inboundUrl}/voice` });
    await carrier.start({ status: () => Promise.resolve(), statusMany: () => Promise.resolve(), inbound: () => Promise.resolve() });
  });
  afterAll(async () => {
    await carrier.stop();
    await peer.close();
  });
  beforeEach(() => {
    peer.requests.length = 0;
    peer.inventory = {};
  });

  it('states its capabilities', () => {
    expect(carrier.name).toBe('twilio');
    expect(carrier.capabilities).toMatchObject({ sms: true, mms: true, numberInventory: true });
  });

  it('sends an SMS as a form post and takes the answer sid as the carrier message id', async () => {
    const result = await carrier.send(message());
    expect(result).toEqual({ accepted: true, carrierMessageId: expect.stringMatching(/^SM\d{32}$/) as unknown });
    const [request] = peer.requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe(`/2010-04-01/Accounts/${accountSid}/Messages.json`);
    expect(request?.contentType).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(request?.form ?? [])).toEqual({
      To: '+14155550123',
      From: '+15005550006',
      Body: 'Your appointment is tomorrow at 9:00.',
      StatusCallback: statusCallbackUrl,
    });
  });

  it('sends an MMS with one MediaUrl field per media item', async () => {
    const media = [
      { url: 'https://sms.example.test/media/a.jpg?sig=1&exp=2', contentType: 'image/jpeg' },
      { url: 'https://sms.example.test/media/b.png?sig=3', contentType: 'image/png' },
    ];
    const result = await carrier.send(message({ text: 'Photos', media }));
    expect(result.accepted).toBe(true);
    expect(peer.requests[0]?.form.getAll('MediaUrl')).toEqual(media.map((item) => item.url));
  });

  it('maps an invalid To (400, code 21211) to a final refusal with the code and text', async () => {
    const result = await carrier.send(message({ to: '12' }));
    expect(result).toEqual({
      accepted: false,
      retryable: false,
      errorCode: '21211',
      errorText: "The 'To' number 12 is not a valid phone number.",
    });
  });

  it('maps a throttle (429) and a server fault (500) to retryable refusals', async () => {
    peer.nextMessageStatus = 429;
    expect(await carrier.send(message())).toEqual({
      accepted: false,
      retryable: true,
      errorCode: '20429',
      errorText: 'Too Many Requests',
    });
    peer.nextMessageStatus = 500;
    expect(await carrier.send(message())).toMatchObject({ accepted: false, retryable: true, errorCode: '20500' });
  });

  it('refuses final on wrong credentials (401, code 20003)', async () => {
    const wrong = new TwilioCarrier({ accountSid, authToken: 'wrong', apiBaseUrl, statusCallbackUrl, inboundUrl });
    expect(await wrong.send(message())).toEqual({
      accepted: false,
      retryable: false,
      errorCode: '20003',
      errorText: 'Authenticate',
    });
    expect(peer.requests).toHaveLength(0);
  });

  it('answers retryable when the API cannot be reached', async () => {
    const unreachable = new TwilioCarrier({
      accountSid,
      authToken,
      apiBaseUrl: 'http://127.0.0.1:1',
      statusCallbackUrl,
      inboundUrl,
    });
    expect(await unreachable.send(message())).toMatchObject({ accepted: false, retryable: true, errorCode: 'connection' });
  });

  it('lists SMS-enabled Mobile numbers of a country', async () => {
    peer.inventory = { GB: { Mobile: ['+447700900001', '+447700900002', '+447700900003'] } };
    const numbers = await carrier.availableNumbers({ country: 'GB', limit: 2 });
    expect(numbers).toEqual([
      { number: '+447700900001', country: 'GB', capabilities: { sms: true, mms: false } },
      { number: '+447700900002', country: 'GB', capabilities: { sms: true, mms: false } },
    ]);
    expect(peer.requests).toHaveLength(1);
    expect(peer.requests[0]?.path).toBe(`/2010-04-01/Accounts/${accountSid}/AvailablePhoneNumbers/GB/Mobile.json`);
    expect(peer.requests[0]?.query.get('SmsEnabled')).toBe('true');
    expect(peer.requests[0]?.query.get('PageSize')).toBe('2');
  });

  it('falls back to Local numbers where the country sells no Mobile ones', async () => {
    peer.inventory = { US: { Local: ['+14155550001'] } };
    const numbers = await carrier.availableNumbers({ country: 'us', limit: 5 });
    expect(numbers).toEqual([{ number: '+14155550001', country: 'US', capabilities: { sms: true, mms: true } }]);
    expect(peer.requests.map((request) => request.path.split('/').pop())).toEqual(['Mobile.json', 'Local.json']);
  });

  it('answers an empty list where the country sells neither', async () => {
    expect(await carrier.availableNumbers({ country: 'FR', limit: 5 })).toEqual([]);
  });

  it('buys a number, pointing its SmsUrl and VoiceUrl at our webhooks, and returns its sid', async () => {
    peer.inventory = { US: { Local: ['+14155550001'] } };
    const bought = await carrier.buyNumber('+14155550001');
    expect(bought.carrierNumberId).toMatch(/^PN\d{32}$/);
    const form = peer.requests[0]?.form;
    expect(peer.requests[0]?.path).toBe(`/2010-04-01/Accounts/${accountSid}/IncomingPhoneNumbers.json`);
    expect(form?.get('PhoneNumber')).toBe('+14155550001');
    expect(form?.get('SmsUrl')).toBe(inboundUrl);
    expect(form?.get('SmsMethod')).toBe('POST');
    expect(form?.get('VoiceUrl')).toBe(`${inboundUrl}/voice`);
  });

  it('throws the API error when the number cannot be bought', async () => {
    const attempt = carrier.buyNumber('+14155559999');
    await expect(attempt).rejects.toBeInstanceOf(TwilioApiError);
    await expect(attempt).rejects.toMatchObject({ httpStatus: 400, code: 21422, retryable: false });
  });

  it('places a verification call that reads the code digit by digit, from the given number', async () => {
    await carrier.placeVerificationCall({ from: '+15005550006', to: '+14155550123', code: '402917' });
    const [request] = peer.requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe(`/2010-04-01/Accounts/${accountSid}/Calls.json`);
    expect(request?.form.get('To')).toBe('+14155550123');
    expect(request?.form.get('From')).toBe('+15005550006');
    const twiml = request?.form.get('Twiml') ?? '';
    expect(twiml).toBe(verificationTwiml('402917'));
    expect(twiml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?><Response><Say>[^<]*4, 0, 2, 9, 1, 7\.<\/Say>/);
    expect(twiml.match(/4, 0, 2, 9, 1, 7/g)).toHaveLength(2);
  });

  it('places the call from the configured caller number when there is one', async () => {
    const withCaller = new TwilioCarrier({ accountSid, authToken, apiBaseUrl, statusCallbackUrl, inboundUrl, callerId: '+15005550001' });
    await withCaller.placeVerificationCall({ from: '+15005550006', to: '+14155550123', code: '123456' });
    expect(peer.requests[0]?.form.get('From')).toBe('+15005550001');
    await expect(carrier.placeVerificationCall({ from: null, to: '+14155550123', code: '123456' })).rejects.toThrow(/TWILIO_CALLER_ID/);
    expect(peer.requests).toHaveLength(1);
  });

  it('throws the API error when Twilio refuses the call, and refuses a code that is not digits', async () => {
    const attempt = carrier.placeVerificationCall({ from: '+15005550006', to: '12', code: '123456' });
    await expect(attempt).rejects.toMatchObject({ httpStatus: 400, code: 21211 });
    expect(() => verificationTwiml('12a456')).toThrow(/4 to 10 digits/);
    expect(() => verificationTwiml('<Say>')).toThrow(/4 to 10 digits/);
  });

  it('refuses retryable once stopped, after the sends in flight finish', async () => {
    const stopping = new TwilioCarrier({ accountSid, authToken, apiBaseUrl, statusCallbackUrl, inboundUrl });
    await stopping.start({ status: () => Promise.resolve(), statusMany: () => Promise.resolve(), inbound: () => Promise.resolve() });
    const inFlight = stopping.send(message());
    let settled = false;
    void inFlight.then(() => (settled = true));
    await stopping.stop();
    expect(settled).toBe(true);
    await expect(inFlight).resolves.toMatchObject({ accepted: true });
    expect(await stopping.send(message())).toMatchObject({ accepted: false, retryable: true, errorCode: 'stopped' });
  });
});
