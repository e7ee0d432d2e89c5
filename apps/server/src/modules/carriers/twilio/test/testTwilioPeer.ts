import http from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A local peer answering as Twilio's REST API 2010-04-01 documents, for the adapter's tests and the tests
 * of what builds adapters from the config.
 */

export interface Recorded {
  method: string;
  path: string;
  query: URLSearchParams;
  form: URLSearchParams;
  contentType: string | undefined;
}

/** A number the Twilio account owns, with the webhook fields the API lists. */
export interface OwnedNumber {
  sid: string;
  phoneNumber: string;
  friendlyName: string;
  smsUrl: string;
  smsMethod: string;
  voiceUrl: string;
  voiceMethod: string;
  statusCallback: string;
}

/**
 * A local peer answering as Twilio's REST API 2010-04-01 documents: basic auth with the account SID and auth
 * token, form-encoded POST bodies, JSON answers, and error bodies `{ code, message, more_info, status }`.
 */
export class TwilioApiPeer {
  readonly requests: Recorded[] = [];
  /** Numbers the peer sells, by country and type. */
  inventory: Record<string, { Mobile?: string[]; Local?: string[] }> = {};
  /** The account's own numbers (IncomingPhoneNumbers), in the order Twilio lists them. */
  readonly owned: OwnedNumber[] = [];
  /** The account's status, as GET /Accounts/{sid}.json answers it. */
  accountStatus: 'active' | 'suspended' | 'closed' = 'active';
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

  constructor(
    readonly accountSid: string,
    public authToken: string,
  ) {}

  /** Answers the peer's base URL; `listenOn`: 0 (the default) for a free port, or where a server was told it is. */
  async start(listenOn = 0): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(listenOn, '127.0.0.1', resolve));
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

    const { accountSid, authToken } = this;
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
    if (route === '/Calls.json' && formPost) {
      const to = form.get('To') ?? '';
      if (!/^\+[1-9]\d{6,14}$/.test(to)) {
        error(400, 21211, `The 'To' number ${to} is not a valid phone number.`);
        return;
      }
      if (!form.get('From')) {
        error(400, 21213, 'No From number is specified');
        return;
      }
      if (!form.get('Twiml') && !form.get('Url')) {
        error(400, 21205, 'Url or Twiml parameter is required.');
        return;
      }
      this.sequence += 1;
      send(201, { sid: `CA${String(this.sequence).padStart(32, '0')}`, to, from: form.get('From'), status: 'queued' });
      return;
    }
    if (route === '.json' && request.method === 'GET') {
      send(200, { sid: accountSid, friendly_name: 'My first Twilio account', status: this.accountStatus, type: 'Full', uri: `${prefix}.json` });
      return;
    }
    if (route === '/IncomingPhoneNumbers.json' && request.method === 'GET') {
      send(200, this.ownedPage(prefix, url.searchParams));
      return;
    }
    const one = route === null ? null : /^\/IncomingPhoneNumbers\/(PN[0-9a-fA-F]{32})\.json$/.exec(route);
    if (one) {
      const owned = this.owned.find((n) => n.sid === one[1]);
      if (owned === undefined) {
        error(404, 20404, `The requested resource ${url.pathname} was not found`);
        return;
      }
      if (formPost) {
        if (form.has('SmsUrl')) owned.smsUrl = form.get('SmsUrl') ?? '';
        if (form.has('SmsMethod')) owned.smsMethod = form.get('SmsMethod') ?? 'POST';
        if (form.has('VoiceUrl')) owned.voiceUrl = form.get('VoiceUrl') ?? '';
        if (form.has('VoiceMethod')) owned.voiceMethod = form.get('VoiceMethod') ?? 'POST';
        if (form.has('StatusCallback')) owned.statusCallback = form.get('StatusCallback') ?? '';
      } else if (request.method !== 'GET') {
        error(405, 20004, 'Method not allowed');
        return;
      }
      send(200, this.numberResource(prefix, owned));
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
        voice_url: form.get('VoiceUrl'),
        capabilities: { voice: true, sms: true, mms: true, fax: false },
      });
      return;
    }
    error(404, 20404, `The requested resource ${url.pathname} was not found`);
  }

  /** Adds a number the account owns (as if bought in Twilio's console); its PN sid. */
  addOwned(phoneNumber: string, friendlyName = phoneNumber): string {
    const sid = `PN${phoneNumber.replace(/\D/g, '').padStart(32, '0')}`;
    this.owned.push({ sid, phoneNumber, friendlyName, smsUrl: 'https://demo.twilio.com/welcome/sms/reply', smsMethod: 'POST', voiceUrl: 'https://demo.twilio.com/welcome/voice/', voiceMethod: 'POST', statusCallback: '' });
    return sid;
  }

  private numberResource(prefix: string, n: OwnedNumber): Record<string, unknown> {
    return {
      account_sid: this.accountSid,
      sid: n.sid,
      phone_number: n.phoneNumber,
      friendly_name: n.friendlyName,
      sms_url: n.smsUrl,
      sms_method: n.smsMethod,
      voice_url: n.voiceUrl,
      voice_method: n.voiceMethod,
      status_callback: n.statusCallback,
      capabilities: { voice: true, sms: true, mms: true, fax: false },
      uri: `${prefix}/IncomingPhoneNumbers/${n.sid}.json`,
    };
  }

  /**
   * A page of IncomingPhoneNumbers as Twilio pages lists: PageSize (default 50), Page (from 0) and a PageToken
   * (here the sid after which the page starts), with next_page_uri null on the last page.
   */
  private ownedPage(prefix: string, query: URLSearchParams): Record<string, unknown> {
    const size = Math.min(1000, Math.max(1, Number(query.get('PageSize') ?? '50') || 50));
    const page = Number(query.get('Page') ?? '0') || 0;
    const token = query.get('PageToken');
    const after = token === null ? -1 : this.owned.findIndex((n) => `PA${n.sid}` === token);
    const start = after + 1;
    const items = this.owned.slice(start, start + size);
    const list = `${prefix}/IncomingPhoneNumbers.json`;
    const last = items.at(-1);
    const more = start + size < this.owned.length && last !== undefined;
    return {
      incoming_phone_numbers: items.map((n) => this.numberResource(prefix, n)),
      page,
      page_size: size,
      start,
      end: start + items.length - 1,
      uri: `${list}?PageSize=${String(size)}&Page=${String(page)}`,
      first_page_uri: `${list}?PageSize=${String(size)}&Page=0`,
      previous_page_uri: null,
      next_page_uri: more ? `${list}?PageSize=${String(size)}&Page=${String(page + 1)}&PageToken=PA${last.sid}` : null,
    };
  }
}
