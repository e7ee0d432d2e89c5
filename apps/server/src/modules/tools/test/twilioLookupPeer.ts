import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the peer knows of a number: its line type intelligence and caller name, as Twilio answers them. */
export interface PeerNumber {
  carrierName?: string | null;
  type?: string;
  callerName?: string | null;
}

/**
 * A local peer answering as Twilio Lookup v2 documents `GET /v2/PhoneNumbers/{PhoneNumber}?Fields=...`:
 * basic auth with the account SID and auth token (401 `{code: 20003}` otherwise), the fields asked for and
 * nothing else, `valid: false` for a number it does not know.
 */
export class TwilioLookupPeer {
  readonly requests: { number: string; fields: string }[] = [];
  readonly numbers = new Map<string, PeerNumber>();
  /** The next requests answer this status with Twilio's error body. */
  failWith: number | null = null;
  private readonly server = http.createServer((request, response) => {
    this.answer(request, response);
  });

  constructor(
    readonly accountSid: string,
    readonly authToken: string,
  ) {}

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${String((this.server.address() as AddressInfo).port)}`;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.close(() => {
        resolve();
      });
    });
  }

  private answer(request: http.IncomingMessage, response: http.ServerResponse): void {
    const send = (status: number, body: unknown): void => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const expected = `Basic ${Buffer.from(`${this.accountSid}:${this.authToken}`).toString('base64')}`;
    if (request.headers.authorization !== expected) {
      send(401, { code: 20003, message: 'Authenticate', more_info: 'https://www.twilio.com/docs/errors/20003', status: 401 });
      return;
    }
    const url = new URL(request.url ?? '/', 'http://peer');
    const match = /^\/v2\/PhoneNumbers\/([^/]+)$/.exec(url.pathname);
    if (request.method !== 'GET' || !match?.[1]) {
      send(404, { code: 20404, message: 'The requested resource was not found', status: 404 });
      return;
    }
    const number = decodeURIComponent(match[1]);
    const fields = url.searchParams.get('Fields') ?? '';
    this.requests.push({ number, fields });
    if (this.failWith !== null) {
      send(this.failWith, { code: this.failWith === 429 ? 20429 : 20500, message: 'Too Many Requests', status: this.failWith });
      return;
    }
    const known = this.numbers.get(number);
    const asked = new Set(fields.split(','));
    send(200, {
      calling_country_code: '1',
      country_code: 'US',
      phone_number: number,
      national_format: number,
      valid: known !== undefined,
      validation_errors: known === undefined ? ['NOT_A_NUMBER'] : null,
      caller_name: asked.has('caller_name') && known ? { caller_name: known.callerName ?? null, caller_type: 'CONSUMER', error_code: null } : null,
      line_type_intelligence:
        asked.has('line_type_intelligence') && known
          ? { carrier_name: known.carrierName ?? null, type: known.type ?? 'unknown', error_code: null, mobile_country_code: '310', mobile_network_code: '160' }
          : null,
      url: `https://lookups.twilio.com/v2/PhoneNumbers/${number}`,
    });
  }
}
