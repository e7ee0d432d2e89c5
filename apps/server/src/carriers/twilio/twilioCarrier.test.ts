import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { OutboundMessage } from '../carrier.js';
import { TwilioCarrier } from './twilioCarrier.js';
import { TwilioApiError } from './twilioRest.js';

const accountSid = 'AC00000000000000000000000000000001';
const authToken = 'test-auth-token-0123456789abcdef';
const statusCallbackUrl = 'https://sms.example.test/webhooks/twilio/status';
const inboundUrl = 'https://sms.example.test/webhooks/twilio/inbound';

interface Recorded {
  method: string;
  path: string;
  query: URLSearchParams;
  form: URLSearchParams;
  contentType: string | undefined;
}

/**
 * A local peer answering as Twilio's REST API 2010-04-01 documents: basic auth with the account SID and auth
 * token, form-encoded POST bodies, JSON answers, and error bodies `{ code, message, more_info, status }`.
 */
class TwilioApiPeer {
  readonly requests: Recorded[] = [];
  /** Numbers the peer sells, by country and type. */
  inventory: Record<string, { Mobile?: string[]; Local?: string[] }> = {};
  /** The next POST to Messages.json answers this status (with Twilio's error body) instead of 201. */
  nextMessageStatus: number | null = null;
  private server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      this.answer(request, body, response);
    });
  });
  private sequence = 0;

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${String(port)}`;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.close((error) => {
        if (error) reject(error);
        else resolve();
      });
    });
  }

  private answer(request: http.IncomingMessage, body: string, response: http.ServerResponse): void {
    const url = new URL(request.url ?? '/', 'http://peer');
    const send = (status: number, json: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(json));
    };
    const error = (status: number, code: number, message: string) => {
      send(status, { code, message, more_info: `https://www.twilio.com/docs/errors/${String(code)}`, status });
    };

    const expected = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;
    if (request.headers.authorization !== expected) {
      error(401, 20003, 'Authenticate');
      return;
    }
    const form = new URLSearchParams(body);
    this.requests.push({
      method: request.method ?? '',
      path: url.pathname,
      query: url.searchParams,
      form,
      contentType: request.headers['content-type'],
    });
    const prefix = `/2010-04-01/Accounts/${accountSid}`;
    const route = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : null;
    const formPost = request.method === 'POST' && request.headers['content-type'] === 'application/x-www-form-urlencoded';

    if (route === '/Messages.json' && formPost) {
      if (this.nextMessageStatus !== null) {
        const status = this.nextMessageStatus;
        this.nextMessageStatus = null;
        if (status === 429) error(429, 20429, 'Too Many Requests');
        else error(status, 20500, 'An internal server error has occurred');
        return;
      }
      const to = form.get('To') ?? '';
      if (!/^\+[1-9]\d{6,14}$/.test(to)) {
        error(400, 21211, `The 'To' number ${to} is not a valid phone number.`);
        return;
      }
      if (!form.get('From') || (!form.get('Body') && form.getAll('MediaUrl').length === 0)) {
        error(400, 21602, 'Message body is required.');
        return;
      }
      this.sequence += 1;
      send(201, {
        account_sid: accountSid,
        sid: `SM${String(this.sequence).padStart(32, '0')}`,
        to,
        from: form.get('From'),
        body: form.get('Body'),
        status: 'queued',
        num_media: String(form.getAll('MediaUrl').length),
        num_segments: '1',
        error_code: null,
        error_message: null,
      });
      return;
    }
    const available = route && /^\/AvailablePhoneNumbers\/([A-Z]{2})\/(Mobile|Local)\.json$/.exec(route);
    if (available && request.method === 'GET') {
      const [, country = '', type = ''] = available;
      const numbers = this.inventory[country]?.[type as 'Mobile' | 'Local'];
      if (!numbers) {
        error(404, 20404, `The requested resource ${url.pathname} was not found`);
        return;
      }
      const size = Number(url.searchParams.get('PageSize') ?? '50');
      send(200, {
        uri: url.pathname + url.search,
        available_phone_numbers: numbers.slice(0, size).map((number) => ({
          friendly_name: number,
          phone_number: number,
          iso_country: country,
          capabilities: { voice: true, SMS: true, MMS: type === 'Local' },
        })),
      });
      return;
    }
    if (route === '/IncomingPhoneNumbers.json' && formPost) {
      const number = form.get('PhoneNumber') ?? '';
      const forSale = Object.values(this.inventory).some((types) =>
        [...(types.Mobile ?? []), ...(types.Local ?? [])].includes(number),
      );
      if (!forSale) {
        error(400, 21422, 'PhoneNumber requested is not available');
        return;
      }
      send(201, {
        sid: `PN${number.replace(/\D/g, '').padStart(32, '0')}`,
        phone_number: number,
        sms_url: form.get('SmsUrl'),
        capabilities: { voice: true, sms: true, mms: true, fax: false },
      });
      return;
    }
    error(404, 20404, `The requested resource ${url.pathname} was not found`);
  }
}

function message(overrides: Partial<OutboundMessage> = {}): OutboundMessage {
  return {
    id: 'msg-1',
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
  const peer = new TwilioApiPeer();
  let carrier: TwilioCarrier;
  let apiBaseUrl: string;

  beforeAll(async () => {
    apiBaseUrl = await peer.start();
    carrier = new TwilioCarrier({ accountSid, authToken, apiBaseUrl, statusCallbackUrl, inboundUrl });
    await carrier.start({ status: () => Promise.resolve(), inbound: () => Promise.resolve() });
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

  it('buys a number, pointing its SmsUrl at our inbound webhook, and returns its sid', async () => {
    peer.inventory = { US: { Local: ['+14155550001'] } };
    const bought = await carrier.buyNumber('+14155550001');
    expect(bought.carrierNumberId).toMatch(/^PN\d{32}$/);
    const form = peer.requests[0]?.form;
    expect(peer.requests[0]?.path).toBe(`/2010-04-01/Accounts/${accountSid}/IncomingPhoneNumbers.json`);
    expect(form?.get('PhoneNumber')).toBe('+14155550001');
    expect(form?.get('SmsUrl')).toBe(inboundUrl);
    expect(form?.get('SmsMethod')).toBe('POST');
  });

  it('throws the API error when the number cannot be bought', async () => {
    const attempt = carrier.buyNumber('+14155559999');
    await expect(attempt).rejects.toBeInstanceOf(TwilioApiError);
    await expect(attempt).rejects.toMatchObject({ httpStatus: 400, code: 21422, retryable: false });
  });

  it('refuses retryable once stopped, after the sends in flight finish', async () => {
    const stopping = new TwilioCarrier({ accountSid, authToken, apiBaseUrl, statusCallbackUrl, inboundUrl });
    await stopping.start({ status: () => Promise.resolve(), inbound: () => Promise.resolve() });
    const inFlight = stopping.send(message());
    let settled = false;
    void inFlight.then(() => (settled = true));
    await stopping.stop();
    expect(settled).toBe(true);
    await expect(inFlight).resolves.toMatchObject({ accepted: true });
    expect(await stopping.send(message())).toMatchObject({ accepted: false, retryable: true, errorCode: 'stopped' });
  });
});
