import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PeerApp } from '../../test/peerApp.js';

/*
 * A local server answering as AirCall documents its OAuth and public API: /oauth/authorize hands back a
 * single-use code at once (as if the admin approved), POST /v1/oauth/token trades it given the client id and
 * secret; the API takes the Bearer token, answers /v1/integrations/me, lists numbers and users in pages linked
 * by `meta.next_page_link`, creates, reads and deletes webhooks (each with its own token), and takes insight
 * cards on calls. `event` writes a webhook event as AirCall posts it, the webhook's token in the body.
 */

export interface PeerNumber {
  id: number;
  name: string;
  digits: string;
}
export interface PeerUser {
  id: number;
  name: string;
  email: string;
}
export interface PeerWebhook {
  webhook_id: string;
  url: string;
  token: string;
  active: boolean;
  events: string[];
}
/** A call as AirCall's call object writes it (the fields Parley reads). */
export interface PeerCall {
  id: number;
  direction: 'inbound' | 'outbound';
  status: 'initial' | 'answered' | 'done';
  started_at: number;
  answered_at: number | null;
  ended_at: number | null;
  duration: number;
  raw_digits: string;
  voicemail: string | null;
  recording: string | null;
  missed_call_reason: string | null;
  number: PeerNumber;
  user: { id: number; name: string } | null;
  contact: { first_name: string; last_name: string } | null;
}

export interface AirCallPeer {
  /** http://127.0.0.1:port: AIRCALL_API_BASE_URL and AIRCALL_OAUTH_BASE_URL. */
  url: string;
  clientId: string;
  clientSecret: string;
  accessToken: string;
  numbers: PeerNumber[];
  users: PeerUser[];
  webhooks: PeerWebhook[];
  insightCards: { callId: string; contents: unknown }[];
  /** Every request, as `METHOD path?query`. */
  requests: string[];
  /** Page links point to this origin instead of the peer's own (a link off AirCall's host). */
  linkOrigin: string | null;
  /** A request whose path starts with `prefix` answers 429, once. */
  throttleNext(prefix: string): void;
  /** A webhook event as AirCall posts it to `webhook` (its token in the body; `token` to forge one). */
  event(webhook: PeerWebhook, event: string, call: PeerCall, token?: string): string;
  close(): Promise<void>;
}

function send(res: http.ServerResponse, status: number, body?: unknown): http.ServerResponse {
  res.writeHead(status, { 'content-type': 'application/json' });
  return res.end(body === undefined ? '' : JSON.stringify(body));
}

async function bodyOf(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
}

type State = Omit<AirCallPeer, 'url' | 'close' | 'event' | 'throttleNext'> & { codes: Set<string>; throttles: string[]; origin: string };

/** One page of a list, as AirCall writes it: `meta` with counts and the next page's absolute link. */
function paged(state: State, url: URL, key: string, items: readonly unknown[]): Record<string, unknown> {
  const perPage = Math.min(50, Math.max(1, Number(url.searchParams.get('per_page') ?? '20')));
  const page = Math.max(1, Number(url.searchParams.get('page') ?? '1'));
  const more = page * perPage < items.length;
  const next = new URL(`${url.pathname}?page=${String(page + 1)}&per_page=${String(perPage)}`, state.linkOrigin ?? state.origin).toString();
  return {
    [key]: items.slice((page - 1) * perPage, page * perPage),
    meta: { total: items.length, count: Math.min(perPage, Math.max(0, items.length - (page - 1) * perPage)), current_page: page, per_page: perPage, next_page_link: more ? next : null, previous_page_link: null },
  };
}

async function token(state: State, req: http.IncomingMessage, res: http.ServerResponse): Promise<http.ServerResponse> {
  const body = await bodyOf(req);
  const code = typeof body.code === 'string' ? body.code : '';
  if (body.client_id !== state.clientId || body.client_secret !== state.clientSecret || body.grant_type !== 'authorization_code' || !state.codes.delete(code)) {
    return send(res, 400, { error: 'invalid_grant', error_description: 'The provided authorization grant is invalid' });
  }
  return send(res, 200, { access_token: state.accessToken, token_type: 'Bearer', scope: 'public_api', created_at: Math.floor(Date.now() / 1000) });
}

async function api(state: State, req: http.IncomingMessage, url: URL, res: http.ServerResponse): Promise<http.ServerResponse> {
  const method = req.method ?? 'GET';
  const hook = /^\/v1\/webhooks\/([^/]+)$/.exec(url.pathname)?.[1];
  const card = /^\/v1\/calls\/([^/]+)\/insight_cards$/.exec(url.pathname)?.[1];
  if (method === 'GET' && url.pathname === '/v1/integrations/me') return send(res, 200, { integration: { name: 'Parley', custom_name: null, company_id: 4242, active: true, numbers_count: state.numbers.length } });
  if (method === 'GET' && url.pathname === '/v1/numbers') return send(res, 200, paged(state, url, 'numbers', state.numbers));
  if (method === 'GET' && url.pathname === '/v1/users') return send(res, 200, paged(state, url, 'users', state.users));
  if (method === 'POST' && url.pathname === '/v1/webhooks') {
    const body = await bodyOf(req);
    const webhook: PeerWebhook = { webhook_id: crypto.randomUUID(), url: String(body.url), token: crypto.randomBytes(16).toString('hex'), active: true, events: body.events as string[] };
    state.webhooks.push(webhook);
    return send(res, 201, { webhook: { ...webhook, custom_name: body.custom_name, direct_link: `${state.origin}/v1/webhooks/${webhook.webhook_id}`, created_at: new Date().toISOString() } });
  }
  const found = state.webhooks.find((w) => w.webhook_id === hook);
  if (hook !== undefined && found === undefined) return send(res, 404, { error: 'Not found', troubleshoot: 'Check the webhook id' });
  if (method === 'GET' && found !== undefined) return send(res, 200, { webhook: found });
  if (method === 'DELETE' && found !== undefined) {
    state.webhooks.splice(state.webhooks.indexOf(found), 1);
    return send(res, 200);
  }
  if (method === 'POST' && card !== undefined) {
    const body = await bodyOf(req);
    state.insightCards.push({ callId: card, contents: body.contents });
    return send(res, 201);
  }
  return send(res, 404, { error: 'Not found' });
}

/** Listens on `options.port` (a free one by default) and knows `options`' app (its own by default): test/peerApp.ts. */
export async function startAirCallPeer(options: PeerApp = {}): Promise<AirCallPeer> {
  const state: State = {
    clientId: options.clientId ?? 'aircall-client-id',
    clientSecret: options.clientSecret ?? 'aircall-client-secret',
    accessToken: `ac-${crypto.randomBytes(12).toString('hex')}`,
    numbers: [],
    users: [],
    webhooks: [],
    insightCards: [],
    requests: [],
    linkOrigin: null,
    codes: new Set(),
    throttles: [],
    origin: '',
  };

  async function answer(req: http.IncomingMessage, res: http.ServerResponse): Promise<http.ServerResponse> {
    const url = new URL(req.url ?? '/', 'http://peer');
    state.requests.push(`${req.method ?? 'GET'} ${url.pathname}${url.search}`);
    if (req.method === 'GET' && url.pathname === '/oauth/authorize') {
      const back = new URL(url.searchParams.get('redirect_uri') ?? '');
      if (url.searchParams.get('client_id') !== state.clientId || url.searchParams.get('response_type') !== 'code') return send(res, 400, { error: 'invalid_request' });
      const code = crypto.randomBytes(12).toString('hex');
      state.codes.add(code);
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: back.toString() });
      return res.end();
    }
    if (req.method === 'POST' && url.pathname === '/v1/oauth/token') return token(state, req, res);
    if (req.headers.authorization !== `Bearer ${state.accessToken}`) return send(res, 401, { error: 'Unauthorized', troubleshoot: 'Check your token' });
    const throttle = state.throttles.findIndex((prefix) => url.pathname.startsWith(prefix));
    if (throttle !== -1) {
      state.throttles.splice(throttle, 1);
      res.writeHead(429, { 'content-type': 'application/json', 'x-aircallapi-limit': '60', 'x-aircallapi-remaining': '0', 'x-aircallapi-reset': String(Math.floor(Date.now() / 1000) + 30) });
      return res.end(JSON.stringify({ error: 'Too many requests' }));
    }
    return api(state, req, url, res);
  }

  const server = http.createServer((req, res) => {
    answer(req, res).catch(() => send(res, 500, { error: 'peer failed' }));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.origin = `http://127.0.0.1:${String(port)}`;
  return Object.assign(state, {
    url: state.origin,
    throttleNext(prefix: string) {
      state.throttles.push(prefix);
    },
    event: (webhook: PeerWebhook, event: string, call: PeerCall, token = webhook.token) =>
      JSON.stringify({ resource: 'call', event, timestamp: Math.floor(Date.now() / 1000), token, data: call }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  });
}
