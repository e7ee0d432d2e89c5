import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PeerApp } from '../../test/peerApp.js';

/*
 * A local server answering as Pipedrive documents its OAuth server and API: /oauth/authorize hands back a
 * single-use code at once (as if the user approved), /oauth/token takes the client by HTTP Basic and the PKCE
 * verifier, and names the company's api_domain; the API takes the Bearer token (401 otherwise), pages
 * persons by cursor (`additional_data.next_cursor`), searches them by phone, and keeps activities and notes.
 * A test asks for a 429 with Retry-After when it wants one.
 */

export interface PeerPerson {
  id: number;
  name: string;
  first_name: string;
  last_name: string;
  emails: { value: string; primary: boolean; label: string }[];
  phones: { value: string; primary: boolean; label: string }[];
}

export interface PipedrivePeer {
  /** http://127.0.0.1:port: PIPEDRIVE_API_BASE_URL and PIPEDRIVE_OAUTH_BASE_URL. */
  url: string;
  clientId: string;
  clientSecret: string;
  /** The api_domain token answers name (the peer's own URL unless a test changes it). */
  apiDomain: string;
  /** The token the API takes; a new one is handed out by each token call. */
  accessToken: string;
  company: { id: number; domain: string; name: string };
  persons: PeerPerson[];
  deals: { id: number; person_id: number | null }[];
  activities: { id: number; type: string; subject: string; done: boolean; person_id: number; note: string }[];
  notes: { id: number; content: string; person_id: number }[];
  /** Every request, as `METHOD path?query`. */
  requests: string[];
  /** A request whose path starts with `prefix` answers 429 with this Retry-After, once, after `skip` such requests. */
  throttleNext(prefix: string, retryAfterSeconds: number, skip?: number): void;
  close(): Promise<void>;
}

const PAGE_MAX = 500;

function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): http.ServerResponse {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  return res.end(JSON.stringify(body));
}

async function bodyOf(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const digits = (value: string): string => value.replace(/\D/g, '');
const s256 = (verifier: string): string => crypto.createHash('sha256').update(verifier).digest('base64url');

type State = Omit<PipedrivePeer, 'url' | 'close' | 'throttleNext'>;

function oauth(state: State, codes: Map<string, { redirectUri: string; challenge: string }>, refreshTokens: Set<string>) {
  return {
    authorize(url: URL, res: http.ServerResponse): http.ServerResponse {
      if (url.searchParams.get('client_id') !== state.clientId) return send(res, 400, { error: 'invalid_client' });
      const code = crypto.randomBytes(12).toString('hex');
      const redirectUri = url.searchParams.get('redirect_uri') ?? '';
      codes.set(code, { redirectUri, challenge: url.searchParams.get('code_challenge') ?? '' });
      const back = new URL(redirectUri);
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: back.toString() });
      return res.end();
    },
    async token(req: http.IncomingMessage, res: http.ServerResponse): Promise<http.ServerResponse> {
      const basic = `Basic ${Buffer.from(`${state.clientId}:${state.clientSecret}`).toString('base64')}`;
      if (req.headers.authorization !== basic) return send(res, 401, { success: false, error: 'Invalid client' });
      const form = new URLSearchParams(await bodyOf(req));
      if (form.get('grant_type') === 'authorization_code') {
        const asked = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        if (asked === undefined || asked.redirectUri !== form.get('redirect_uri') || asked.challenge !== s256(form.get('code_verifier') ?? '')) {
          return send(res, 400, { success: false, error: 'invalid_grant' });
        }
      } else if (form.get('grant_type') !== 'refresh_token' || !refreshTokens.has(form.get('refresh_token') ?? '')) {
        return send(res, 400, { success: false, error: 'invalid_grant' });
      }
      state.accessToken = crypto.randomBytes(12).toString('hex');
      const refreshToken = crypto.randomBytes(12).toString('hex');
      refreshTokens.add(refreshToken);
      return send(res, 200, { access_token: state.accessToken, token_type: 'Bearer', refresh_token: refreshToken, scope: 'base,contacts:full,activities:full', expires_in: 3599, api_domain: state.apiDomain });
    },
  };
}

async function api(state: State, req: http.IncomingMessage, url: URL, res: http.ServerResponse): Promise<http.ServerResponse> {
  const route = `${req.method ?? 'GET'} ${url.pathname.replace(/\/\d+$/, '/:id')}`;
  const id = Number(/\/(\d+)$/.exec(url.pathname)?.[1] ?? '0');
  const nextId = (items: readonly { id: number }[]): number => Math.max(0, ...items.map((i) => i.id)) + 1;
  switch (route) {
    case 'GET /v1/users/me':
      return send(res, 200, { success: true, data: { id: 1, company_id: state.company.id, company_domain: state.company.domain, company_name: state.company.name } });
    case 'GET /api/v2/persons': {
      const limit = Math.min(PAGE_MAX, Number(url.searchParams.get('limit') ?? '100'));
      const start = Number(Buffer.from(url.searchParams.get('cursor') ?? '', 'base64url').toString() || '0');
      const page = state.persons.slice(start, start + limit);
      const next = start + limit < state.persons.length ? Buffer.from(String(start + limit)).toString('base64url') : null;
      return send(res, 200, { success: true, data: page, additional_data: { next_cursor: next } });
    }
    case 'GET /api/v2/persons/search': {
      const term = digits(url.searchParams.get('term') ?? '');
      const found = state.persons.filter((p) => term.length > 0 && p.phones.some((ph) => digits(ph.value).includes(term) || term.includes(digits(ph.value))));
      return send(res, 200, { success: true, data: { items: found.map((p) => ({ result_score: 1, item: { id: p.id, name: p.name, phones: p.phones.map((ph) => ph.value) } })) } });
    }
    case 'GET /api/v2/persons/:id': {
      const person = state.persons.find((p) => p.id === id);
      return person === undefined ? send(res, 404, { success: false, error: 'Person not found' }) : send(res, 200, { success: true, data: person });
    }
    case 'POST /api/v2/persons': {
      const body = JSON.parse(await bodyOf(req)) as Partial<PeerPerson>;
      const person: PeerPerson = { id: nextId(state.persons), name: body.name ?? '', first_name: '', last_name: '', emails: body.emails ?? [], phones: body.phones ?? [] };
      state.persons.push(person);
      return send(res, 200, { success: true, data: person });
    }
    case 'GET /api/v2/deals/:id': {
      const deal = state.deals.find((d) => d.id === id);
      return deal === undefined ? send(res, 404, { success: false, error: 'Deal not found' }) : send(res, 200, { success: true, data: deal });
    }
    case 'POST /api/v2/activities': {
      const body = JSON.parse(await bodyOf(req)) as { type?: string; subject?: string; done?: boolean; person_id?: number; note?: string };
      if (!state.persons.some((p) => p.id === body.person_id)) return send(res, 400, { success: false, error: 'Person not found' });
      const activity = { id: nextId(state.activities), type: body.type ?? '', subject: body.subject ?? '', done: body.done ?? false, person_id: body.person_id ?? 0, note: body.note ?? '' };
      state.activities.push(activity);
      return send(res, 200, { success: true, data: activity });
    }
    case 'POST /v1/notes': {
      const body = JSON.parse(await bodyOf(req)) as { content?: string; person_id?: number };
      if (!state.persons.some((p) => p.id === body.person_id)) return send(res, 400, { success: false, error: 'Person not found' });
      const note = { id: nextId(state.notes), content: body.content ?? '', person_id: body.person_id ?? 0 };
      state.notes.push(note);
      return send(res, 201, { success: true, data: note });
    }
    default:
      return send(res, 404, { success: false, error: 'Unknown method' });
  }
}

/** Listens on `options.port` (a free one by default) and knows `options`' app (its own by default): test/peerApp.ts. */
export async function startPipedrivePeer(options: PeerApp = {}): Promise<PipedrivePeer> {
  const throttles: { prefix: string; seconds: number; skip: number }[] = [];
  const state: State = {
    clientId: options.clientId ?? 'pd-client',
    clientSecret: options.clientSecret ?? 'pd-secret',
    apiDomain: '',
    accessToken: crypto.randomBytes(12).toString('hex'),
    company: { id: 4242, domain: 'acme', name: 'Acme Ltd' },
    persons: [],
    deals: [],
    activities: [],
    notes: [],
    requests: [],
  };
  const flow = oauth(state, new Map(), new Set());

  async function answer(req: http.IncomingMessage, res: http.ServerResponse): Promise<http.ServerResponse> {
    const url = new URL(req.url ?? '/', 'http://peer');
    state.requests.push(`${req.method ?? 'GET'} ${url.pathname}${url.search}`);
    if (url.pathname === '/oauth/authorize') return flow.authorize(url, res);
    if (url.pathname === '/oauth/token') return flow.token(req, res);
    if (url.pathname === '/oauth/revoke') return send(res, 200, {});
    if (req.headers.authorization !== `Bearer ${state.accessToken}`) return send(res, 401, { success: false, error: 'unauthorized access', errorCode: 401 });
    const throttle = throttles.findIndex((t) => url.pathname.startsWith(t.prefix) && t.skip-- <= 0);
    if (throttle !== -1) {
      const [t] = throttles.splice(throttle, 1);
      return send(res, 429, { success: false, error: 'Too many requests' }, { 'retry-after': String(t?.seconds ?? 1) });
    }
    return api(state, req, url, res);
  }

  const server = http.createServer((req, res) => {
    answer(req, res).catch(() => send(res, 500, { success: false, error: 'peer failure' }));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${String(port)}`;
  state.apiDomain = url;
  return Object.assign(state, {
    url,
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
