import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { callRailSignature } from '../callRailSignature.js';

/*
 * A local server answering as CallRail's API v3 documents it: `Authorization: Token token="<key>"` (401
 * without the right one), accounts and an account's calls in numbered pages (`page`, `per_page`,
 * `total_pages`, `total_records`), calls filtered by `start_date`, and a 429 with Retry-After when a test asks
 * for one. It also writes webhooks as CallRail sends them: the call's JSON, signed in the `Signature` header.
 */

export interface PeerCall {
  id: string;
  answered: boolean;
  voicemail: boolean;
  direction: 'inbound' | 'outbound';
  duration: number;
  start_time: string;
  customer_phone_number: string;
  customer_name: string;
  tracking_phone_number: string;
  business_phone_number: string;
  recording: string | null;
  source: string;
  campaign: string;
  keywords: string;
}

export interface CallRailPeer {
  /** http://127.0.0.1:port: what CALLRAIL_API_BASE_URL is set to. */
  url: string;
  apiKey: string;
  accounts: { id: string; name: string }[];
  calls: PeerCall[];
  /** Every request, as `METHOD path?query`. */
  requests: string[];
  /** A request whose path starts with `prefix` answers 429 with this Retry-After, once, after `skip` such requests. */
  throttleNext(prefix: string, retryAfterSeconds: number, skip?: number): void;
  close(): Promise<void>;
}

/** A post-call webhook as CallRail sends it: the body, and its headers signed with the company's key. */
export function callRailWebhook(call: PeerCall, signingKey: string): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify({ ...call, resource_id: call.id, company_id: 'COM1', company_name: 'Acme Plumbing' });
  return { body, headers: { 'content-type': 'application/json', signature: callRailSignature(signingKey, Buffer.from(body)) } };
}

function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): http.ServerResponse {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  return res.end(JSON.stringify(body));
}

function paged<T>(items: readonly T[], query: URLSearchParams): { items: T[]; page: number; per_page: number; total_pages: number; total_records: number } {
  const perPage = Math.min(250, Math.max(1, Number(query.get('per_page') ?? '100')));
  const page = Math.max(1, Number(query.get('page') ?? '1'));
  return {
    items: items.slice((page - 1) * perPage, page * perPage),
    page,
    per_page: perPage,
    total_pages: Math.max(1, Math.ceil(items.length / perPage)),
    total_records: items.length,
  };
}

/** `port`: 0 (the default) for a free one; a browser test's peer listens where the shared server was told it is. */
export async function startCallRailPeer(options: { apiKey?: string; port?: number } = {}): Promise<CallRailPeer> {
  const apiKey = options.apiKey ?? 'cr-test-key';
  const throttles: { prefix: string; seconds: number; skip: number }[] = [];
  const state: Omit<CallRailPeer, 'url' | 'close' | 'throttleNext'> = { apiKey, accounts: [{ id: 'ACC8154748ae6bd4e278a7cddd38a662f4f', name: 'Acme Plumbing' }], calls: [], requests: [] };

  function answer(req: http.IncomingMessage, res: http.ServerResponse): http.ServerResponse {
    const url = new URL(req.url ?? '/', 'http://peer');
    state.requests.push(`${req.method ?? 'GET'} ${url.pathname}${url.search}`);
    if (req.headers.authorization !== `Token token="${state.apiKey}"`) return send(res, 401, { error: 'HTTP Token: Access denied.' });
    const throttle = throttles.findIndex((t) => url.pathname.startsWith(t.prefix) && t.skip-- <= 0);
    if (throttle !== -1) {
      const [t] = throttles.splice(throttle, 1);
      return send(res, 429, { error: 'Too many requests' }, { 'retry-after': String(t?.seconds ?? 1) });
    }
    if (req.method === 'GET' && url.pathname === '/v3/a.json') {
      const { items, ...paging } = paged(state.accounts, url.searchParams);
      return send(res, 200, { ...paging, accounts: items });
    }
    const calls = /^\/v3\/a\/([^/]+)\/calls\.json$/.exec(url.pathname);
    if (req.method === 'GET' && calls !== null && state.accounts.some((a) => a.id === calls[1])) {
      const since = url.searchParams.get('start_date') ?? '';
      const { items, ...paging } = paged(state.calls.filter((c) => c.start_time.slice(0, 10) >= since), url.searchParams);
      return send(res, 200, { ...paging, calls: items });
    }
    return send(res, 404, { error: 'Not found' });
  }

  const server = http.createServer((req, res) => {
    answer(req, res);
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
