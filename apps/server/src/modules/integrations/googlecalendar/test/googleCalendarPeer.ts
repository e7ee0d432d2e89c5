import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PeerApp } from '../../test/peerApp.js';

/*
 * A local server answering as Google documents its OAuth 2 endpoints and the Calendar API v3: the authorize
 * page hands back a single-use code at once (as if the user consented), the token endpoint trades it (client
 * id and secret in the form, the PKCE verifier checked against the S256 challenge) and refreshes tokens, the
 * revoke endpoint forgets a grant; the API takes the Bearer token and answers the calendar list and a
 * calendar's events (timeMin bounds the end, timeMax the start, singleEvents, orderBy=startTime, showDeleted,
 * maxResults and pageToken/nextPageToken), one event, and a patch of its attendees.
 */

export interface PeerAttendee {
  email: string;
  responseStatus: string;
  self?: boolean;
  organizer?: boolean;
}

export interface PeerEvent {
  id: string;
  status: 'confirmed' | 'cancelled';
  summary: string;
  description?: string;
  location?: string;
  start: { dateTime: string };
  end: { dateTime: string };
  attendees: PeerAttendee[];
}

export interface GoogleCalendarPeer {
  url: string;
  clientId: string;
  clientSecret: string;
  calendars: { id: string; summary: string; primary?: boolean }[];
  events: Map<string, PeerEvent[]>;
  /** The largest page the peer answers (smaller than Parley asks, to make it page). */
  pageSize: number;
  /** Access tokens that work; a revoked grant's tokens are removed. */
  accessTokens: Set<string>;
  revoked: string[];
  /** Every request, as `METHOD path?query`. */
  requests: string[];
  close(): Promise<void>;
}

function send(res: http.ServerResponse, status: number, body: unknown): http.ServerResponse {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
  return res.end(JSON.stringify(body));
}

async function bodyOf(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const apiError = (code: number, reason: string, message: string) => ({ error: { code, message, errors: [{ domain: 'global', reason, message }] } });
const s256 = (verifier: string): string => crypto.createHash('sha256').update(verifier).digest('base64url');

/** A page of `items` from the offset in `pageToken`, at most `size` long. */
function page<T>(items: T[], url: URL, size: number): { items: T[]; nextPageToken?: string } {
  const offset = Number(url.searchParams.get('pageToken') ?? '0');
  const limit = Math.min(size, Number(url.searchParams.get('maxResults') ?? '250'));
  const slice = items.slice(offset, offset + limit);
  return offset + limit < items.length ? { items: slice, nextPageToken: String(offset + limit) } : { items: slice };
}

/** Listens on `options.port` (a free one by default) and knows `options`' app (its own by default): test/peerApp.ts. */
export async function startGoogleCalendarPeer(options: PeerApp = {}): Promise<GoogleCalendarPeer> {
  const codes = new Map<string, { challenge: string; redirectUri: string }>();
  const refreshTokens = new Map<string, string>();
  const peer: Omit<GoogleCalendarPeer, 'url' | 'close'> = {
    clientId: options.clientId ?? 'parley-test.apps.googleusercontent.com',
    clientSecret: options.clientSecret ?? 'GOCSPX-test-secret',
    calendars: [
      { id: 'owner@acme.example', summary: 'owner@acme.example', primary: true },
      { id: 'clinic@group.calendar.google.com', summary: 'Clinic appointments' },
    ],
    events: new Map(),
    pageSize: 250,
    accessTokens: new Set(),
    revoked: [],
    requests: [],
  };

  const issue = (refresh: string) => {
    const access = `ya29.${crypto.randomBytes(12).toString('hex')}`;
    peer.accessTokens.add(access);
    refreshTokens.set(access, refresh);
    return { access_token: access, expires_in: 3599, token_type: 'Bearer', scope: 'https://www.googleapis.com/auth/calendar.readonly https://www.googleapis.com/auth/calendar.events' };
  };

  async function token(req: http.IncomingMessage, res: http.ServerResponse): Promise<http.ServerResponse> {
    const form = new URLSearchParams(await bodyOf(req));
    if (form.get('client_id') !== peer.clientId || form.get('client_secret') !== peer.clientSecret) return send(res, 401, { error: 'invalid_client' });
    if (form.get('grant_type') === 'authorization_code') {
      const asked = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      if (asked === undefined || asked.redirectUri !== form.get('redirect_uri') || asked.challenge !== s256(form.get('code_verifier') ?? '')) {
        return send(res, 400, { error: 'invalid_grant', error_description: 'Bad Request' });
      }
      const refresh = `1//${crypto.randomBytes(12).toString('hex')}`;
      return send(res, 200, { ...issue(refresh), refresh_token: refresh });
    }
    if (form.get('grant_type') === 'refresh_token') {
      const refresh = form.get('refresh_token') ?? '';
      if (peer.revoked.includes(refresh) || ![...refreshTokens.values()].includes(refresh)) return send(res, 400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
      return send(res, 200, issue(refresh));
    }
    return send(res, 400, { error: 'unsupported_grant_type' });
  }

  async function revoke(req: http.IncomingMessage, res: http.ServerResponse): Promise<http.ServerResponse> {
    const revoked = new URLSearchParams(await bodyOf(req)).get('token') ?? '';
    peer.revoked.push(revoked);
    for (const [access, refresh] of refreshTokens) if (access === revoked || refresh === revoked) peer.accessTokens.delete(access);
    return send(res, 200, {});
  }

  function events(calendarId: string, url: URL, res: http.ServerResponse): http.ServerResponse {
    const min = Date.parse(url.searchParams.get('timeMin') ?? '');
    const max = Date.parse(url.searchParams.get('timeMax') ?? '');
    const deleted = url.searchParams.get('showDeleted') === 'true';
    const items = (peer.events.get(calendarId) ?? [])
      .filter((e) => (deleted || e.status !== 'cancelled') && (Number.isNaN(min) || Date.parse(e.end.dateTime) > min) && (Number.isNaN(max) || Date.parse(e.start.dateTime) < max))
      .sort((a, b) => Date.parse(a.start.dateTime) - Date.parse(b.start.dateTime));
    return send(res, 200, { kind: 'calendar#events', summary: calendarId, timeZone: 'UTC', ...page(items, url, peer.pageSize) });
  }

  async function api(req: http.IncomingMessage, url: URL, res: http.ServerResponse): Promise<http.ServerResponse> {
    if (!peer.accessTokens.has((req.headers.authorization ?? '').replace(/^Bearer /, ''))) return send(res, 401, apiError(401, 'authError', 'Invalid Credentials'));
    if (req.method === 'GET' && url.pathname === '/calendar/v3/users/me/calendarList') {
      return send(res, 200, { kind: 'calendar#calendarList', ...page(peer.calendars.map((c) => ({ kind: 'calendar#calendarListEntry', ...c })), url, peer.pageSize) });
    }
    const match = /^\/calendar\/v3\/calendars\/([^/]+)\/events(?:\/([^/]+))?$/.exec(url.pathname);
    const calendarId = decodeURIComponent(match?.[1] ?? '');
    if (match === null || !peer.calendars.some((c) => c.id === calendarId)) return send(res, 404, apiError(404, 'notFound', 'Not Found'));
    if (match[2] === undefined) {
      if (url.searchParams.get('singleEvents') !== 'true' || url.searchParams.get('orderBy') !== 'startTime') return send(res, 400, apiError(400, 'badRequest', 'orderBy=startTime needs singleEvents'));
      return events(calendarId, url, res);
    }
    const event = (peer.events.get(calendarId) ?? []).find((e) => e.id === decodeURIComponent(match[2] ?? ''));
    if (event === undefined) return send(res, 404, apiError(404, 'notFound', 'Not Found'));
    if (req.method === 'PATCH') {
      const patch = JSON.parse(await bodyOf(req)) as { attendees?: PeerAttendee[] };
      if (patch.attendees !== undefined) event.attendees = patch.attendees;
    }
    return send(res, 200, { kind: 'calendar#event', ...event });
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<http.ServerResponse> {
    const url = new URL(req.url ?? '/', 'http://peer');
    peer.requests.push(`${req.method ?? 'GET'} ${url.pathname}${url.search}`);
    if (req.method === 'GET' && url.pathname === '/o/oauth2/v2/auth') {
      const code = crypto.randomBytes(10).toString('hex');
      const redirectUri = url.searchParams.get('redirect_uri') ?? '';
      codes.set(code, { challenge: url.searchParams.get('code_challenge') ?? '', redirectUri });
      res.writeHead(302, { location: `${redirectUri}?${new URLSearchParams({ code, state: url.searchParams.get('state') ?? '', scope: url.searchParams.get('scope') ?? '' }).toString()}` });
      return res.end();
    }
    if (req.method === 'POST' && url.pathname === '/token') return token(req, res);
    if (req.method === 'POST' && url.pathname === '/revoke') return revoke(req, res);
    return api(req, url, res);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      send(res, 500, apiError(500, 'backendError', String(error)));
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(peer, {
    url: `http://127.0.0.1:${String(port)}`,
    close: () => new Promise<void>((resolve) => server.close(() => { resolve(); })),
  });
}

/** Configuration pointing Google Calendar at the peer. */
export const googleCalendarEnv = (peer: Pick<GoogleCalendarPeer, 'clientId' | 'clientSecret' | 'url'>): Record<string, string> => ({
  GOOGLE_CLIENT_ID: peer.clientId,
  GOOGLE_CLIENT_SECRET: peer.clientSecret,
  GOOGLE_CALENDAR_API_BASE_URL: peer.url,
  GOOGLE_OAUTH_AUTH_URL: `${peer.url}/o/oauth2/v2/auth`,
  GOOGLE_OAUTH_TOKEN_URL: `${peer.url}/token`,
  GOOGLE_OAUTH_REVOKE_URL: `${peer.url}/revoke`,
});
