import http from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A local server answering as ActiveCampaign's API v3 documents it: the Api-Token header (401 without the
 * right one), offset paging with `limit` (at most 100) and `meta.total` as a string, contacts with `phone`,
 * tags and contact-tag links, notes on a contact, `search` on contacts, and a 429 with Retry-After when a
 * test asks for one (its documented answer past 5 requests a second).
 */

export interface PeerContact {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
}

export interface PeerNote {
  id: string;
  note: string;
  relid: string;
  reltype: string;
}

export interface ActiveCampaignPeer {
  /** http://127.0.0.1:port: what ACTIVECAMPAIGN_API_BASE_URL is set to. */
  url: string;
  apiKey: string;
  contacts: PeerContact[];
  tags: { id: string; tag: string }[];
  contactTags: { contact: string; tag: string }[];
  notes: PeerNote[];
  /** Every request, as `METHOD path?query`. */
  requests: string[];
  /**
   * A request whose path starts with `prefix` answers 429 with this Retry-After (seconds), once: the next
   * one, or the one after `skip` such requests passed.
   */
  throttleNext(prefix: string, retryAfterSeconds: number, skip?: number): void;
  close(): Promise<void>;
}

const MAX_LIMIT = 100;

function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): http.ServerResponse {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  return res.end(JSON.stringify(body));
}

function paged<T>(items: readonly T[], query: URLSearchParams): { page: T[]; total: string } {
  const limit = Math.min(MAX_LIMIT, Math.max(1, Number(query.get('limit') ?? '20')));
  const offset = Math.max(0, Number(query.get('offset') ?? '0'));
  return { page: items.slice(offset, offset + limit), total: String(items.length) };
}

async function bodyOf(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
}

/** `port`: 0 (the default) for a free one; a browser test's peer listens where the shared server was told it is. */
export async function startActiveCampaignPeer(options: { apiKey?: string; port?: number } = {}): Promise<ActiveCampaignPeer> {
  const apiKey = options.apiKey ?? 'ac-test-key';
  const throttles: { prefix: string; seconds: number; skip: number }[] = [];
  const state: Omit<ActiveCampaignPeer, 'url' | 'close' | 'throttleNext'> = { apiKey, contacts: [], tags: [], contactTags: [], notes: [], requests: [] };

  async function answer(req: http.IncomingMessage, res: http.ServerResponse): Promise<http.ServerResponse> {
    const url = new URL(req.url ?? '/', 'http://peer');
    state.requests.push(`${req.method ?? 'GET'} ${url.pathname}${url.search}`);
    if (req.headers['api-token'] !== state.apiKey) return send(res, 401, { message: 'No Result found for Subscriber with id 0' });
    const throttle = throttles.findIndex((t) => url.pathname.startsWith(t.prefix) && t.skip-- <= 0);
    if (throttle !== -1) {
      const [t] = throttles.splice(throttle, 1);
      return send(res, 429, { message: 'Too Many Requests' }, { 'retry-after': String(t?.seconds ?? 1) });
    }
    const route = `${req.method ?? 'GET'} ${url.pathname}`;
    switch (route) {
      case 'GET /api/3/users/me':
        return send(res, 200, { user: { id: '1', email: 'owner@ac.example' } });
      case 'GET /api/3/contacts': {
        const search = url.searchParams.get('search');
        const found = search === null ? state.contacts : state.contacts.filter((c) => [c.email, c.firstName, c.lastName, c.phone].some((v) => v.includes(search)));
        const { page, total } = paged(found, url.searchParams);
        return send(res, 200, { contacts: page, meta: { total } });
      }
      case 'GET /api/3/tags': {
        const { page, total } = paged(state.tags, url.searchParams);
        return send(res, 200, { tags: page, meta: { total } });
      }
      case 'GET /api/3/contactTags': {
        const { page, total } = paged(state.contactTags, url.searchParams);
        return send(res, 200, { contactTags: page, meta: { total } });
      }
      case 'POST /api/3/notes': {
        const body = (await bodyOf(req)) as { note?: { note?: string; relid?: string; reltype?: string } };
        const { note = '', relid = '', reltype = '' } = body.note ?? {};
        if (!state.contacts.some((c) => c.id === relid) || reltype !== 'Subscriber') return send(res, 422, { errors: [{ title: 'Invalid relid' }] });
        const created = { id: String(state.notes.length + 1), note, relid, reltype };
        state.notes.push(created);
        return send(res, 201, { note: created });
      }
      default:
        return send(res, 404, { message: 'No Result found' });
    }
  }

  const server = http.createServer((req, res) => {
    answer(req, res).catch(() => send(res, 500, { message: 'peer failure' }));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${String(port)}`,
    throttleNext(prefix: string, seconds: number, skip = 0) {
      throttles.push({ prefix, seconds, skip });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  });
}
