import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { addressRefusal, guardedLookup, systemResolver, type Resolver } from './addressPolicy.js';
import { allowedHostsFrom, mergeAllowedHosts, normalHost, type AllowedHosts } from './allowedHosts.js';
import { GuardedFetchError } from './guardedFetchError.js';

export { GuardedFetchError, isRetryableStatus, type GuardedFetchErrorKind } from './guardedFetchError.js';

/*
 * The one way the server fetches a URL someone else chose: carrier media now, webhooks and integrations
 * later (DESIGN.md, docs/media.md#fetching-urls). http and https only; the host must be a public address,
 * checked on the literal address or, for a name, on every address it resolves to, at connect time; each
 * redirect is followed by hand and checked the same way; the answer is bounded in size and the whole
 * exchange in time. Hosts the operator allows (FETCH_ALLOWED_HOSTS) pass.
 */

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
export const DEFAULT_MAX_REDIRECTS = 5;

export interface GuardedFetchOptions {
  /** GET by default. */
  method?: string;
  headers?: Readonly<Record<string, string>>;
  body?: string | Uint8Array;
  /** The whole exchange: connections, redirects and the answer's body. */
  timeoutMs?: number;
  /** The largest answer body read; a larger one fails with `too-large`. */
  maxBytes?: number;
  /** Redirects followed; one more fails with `redirects` (0: a redirect is an error). */
  maxRedirects?: number;
  /** Hosts allowed for this call, in addition to the fetcher's own. */
  allowedHosts?: AllowedHosts;
  signal?: AbortSignal;
}

export interface GuardedResponse {
  status: number;
  headers: Headers;
  /** The URL that answered, after redirects. */
  url: string;
  body: Buffer;
}

export type GuardedFetch = (url: string, options?: GuardedFetchOptions) => Promise<GuardedResponse>;

export interface GuardedFetchSettings {
  /** Hosts the operator allows (config.fetch.allowedHosts): entries as FETCH_ALLOWED_HOSTS takes them. */
  allowedHosts?: readonly string[];
  /** How names are resolved; the system's resolver by default (tests give names addresses of their own). */
  resolve?: Resolver;
  /**
   * Keep connections open and reuse them, at most this many per origin (webhooks send thousands of requests
   * to one receiver). A connection is made through the guarded lookup like any other, and only calls without
   * hosts of their own (`allowedHosts`) share them. Left out, every request has a connection of its own.
   */
  keepAliveSockets?: number;
}

interface Agents {
  http: http.Agent;
  https: https.Agent;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Headers that carry credentials: never sent on to another origin than the first. */
const CREDENTIALS = ['authorization', 'cookie', 'proxy-authorization'];

interface Hop {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: Buffer | null;
}

interface HopAnswer {
  status: number;
  headers: Headers;
  body: Buffer;
}

/** A URL the guard accepts: absolute, http or https. */
function checkedUrl(text: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    throw new GuardedFetchError('invalid-url', `not an absolute URL: ${text.slice(0, 200)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new GuardedFetchError('scheme', `only http and https URLs are fetched, not ${url.protocol}`);
  }
  return url;
}

function headersOf(raw: readonly string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      headers.append(raw[i] ?? '', raw[i + 1] ?? '');
    } catch {
      // A header the Headers class refuses (an invalid name or value) is left out.
    }
  }
  return headers;
}

/** One request and its answer, the body read (but not a redirect's or a HEAD's). */
function exchange(hop: Hop, allowed: AllowedHosts, resolve: Resolver, signal: AbortSignal, maxBytes: number, agents: Agents | null): Promise<HopAnswer> {
  const host = normalHost(hop.url.hostname);
  // A literal address never goes through the lookup: it is checked here. (URL has already turned odd IPv4
  // spellings such as 2130706433 or 0x7f.1 into the dotted form.)
  if (isIP(host) !== 0) {
    const refusal = addressRefusal(allowed, host, host);
    if (refusal !== null) return Promise.reject(new GuardedFetchError('blocked', refusal));
  }
  return new Promise<HopAnswer>((resolvePromise, reject) => {
    let settled = false;
    const finish = (error: unknown, answer?: HopAnswer): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      if (answer !== undefined) resolvePromise(answer);
      else reject(error instanceof GuardedFetchError ? error : new GuardedFetchError('unreachable', `no answer from ${hop.url.host}: ${errorText(error)}`, { cause: error }));
    };
    const secure = hop.url.protocol === 'https:';
    const transport = secure ? https : http;
    const request = transport.request(
      {
        protocol: hop.url.protocol,
        hostname: host,
        port: hop.url.port === '' ? undefined : Number(hop.url.port),
        path: `${hop.url.pathname}${hop.url.search}`,
        method: hop.method,
        headers: hop.headers,
        // A connection of its own unless the fetcher keeps them: each is made through the guarded lookup.
        agent: agents === null ? false : secure ? agents.https : agents.http,
        lookup: guardedLookup(allowed, resolve),
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const headers = headersOf(response.rawHeaders);
        if (REDIRECTS.has(status) || hop.method === 'HEAD') {
          response.destroy();
          finish(null, { status, headers, body: Buffer.alloc(0) });
          return;
        }
        const declared = Number(headers.get('content-length') ?? '0');
        if (declared > maxBytes) {
          response.destroy();
          finish(new GuardedFetchError('too-large', `larger than ${String(maxBytes)} bytes`));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            response.destroy();
            finish(new GuardedFetchError('too-large', `larger than ${String(maxBytes)} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => {
          finish(null, { status, headers, body: Buffer.concat(chunks) });
        });
        response.on('error', (error) => {
          finish(error);
        });
        response.on('close', () => {
          if (!response.complete) finish(new Error('the answer was cut off'));
        });
      },
    );
    const onAbort = (): void => {
      const reason: unknown = signal.reason;
      finish(reason instanceof GuardedFetchError ? reason : new GuardedFetchError('timeout', `aborted: ${errorText(reason)}`));
      request.destroy();
    };
    if (signal.aborted) {
      onAbort();
      return;
    }
    signal.addEventListener('abort', onAbort);
    request.on('error', (error) => {
      finish(error);
    });
    request.end(hop.body ?? undefined);
  });
}

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * A fetcher with the operator's allowed hosts. Each call sends one request (following redirects), reads
 * the whole answer and resolves with it whatever its status; it rejects with a GuardedFetchError only when
 * there is no answer to give (refused by the guard, too large, too slow, unreachable).
 */
export function createGuardedFetch(settings: GuardedFetchSettings = {}): GuardedFetch {
  const kept = settings.keepAliveSockets;
  return fetcher(settings, kept === undefined ? null : keptAgents(kept));
}

/**
 * Fetchers whose kept-open connections are their own: `keepAliveSockets` per origin in each pool. Webhooks
 * take one pool per endpoint, so endpoints that share an origin (paths of one service) do not share its
 * connections, and a slow one holds only its own (docs/notifications.md, "Sending").
 */
export interface PooledFetch {
  pool(name: string): GuardedFetch;
  /** Closes a pool's connections; a later call to the pool opens new ones. */
  close(name: string): void;
  closeAll(): void;
}

export function createPooledFetch(settings: GuardedFetchSettings & { keepAliveSockets: number }): PooledFetch {
  const pools = new Map<string, { fetch: GuardedFetch; agents: Agents }>();
  const close = (name: string): void => {
    const pool = pools.get(name);
    if (pool === undefined) return;
    pools.delete(name);
    pool.agents.http.destroy();
    pool.agents.https.destroy();
  };
  return {
    pool(name) {
      let pool = pools.get(name);
      if (pool === undefined) {
        const agents = keptAgents(settings.keepAliveSockets);
        pool = { fetch: fetcher(settings, agents), agents };
        pools.set(name, pool);
      }
      return pool.fetch;
    },
    close,
    closeAll() {
      for (const name of [...pools.keys()]) close(name);
    },
  };
}

const keptAgents = (sockets: number): Agents => ({
  http: new http.Agent({ keepAlive: true, maxSockets: sockets }),
  https: new https.Agent({ keepAlive: true, maxSockets: sockets }),
});

function fetcher(settings: GuardedFetchSettings, agents: Agents | null): GuardedFetch {
  const configured = allowedHostsFrom(settings.allowedHosts ?? []);
  const resolve = settings.resolve ?? systemResolver;
  return async (url, options = {}) => {
    const allowed = options.allowedHosts === undefined ? configured : mergeAllowedHosts(configured, options.allowedHosts);
    const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const deadline = new AbortController();
    const timer = setTimeout(() => {
      deadline.abort(new GuardedFetchError('timeout', `no complete answer within ${String(timeoutMs)} ms`));
    }, timeoutMs);
    const signal = options.signal === undefined ? deadline.signal : AbortSignal.any([deadline.signal, options.signal]);
    try {
      const first = checkedUrl(url);
      const headers: Record<string, string> = { 'user-agent': 'Parley', ...lowerCased(options.headers ?? {}) };
      let hop: Hop = {
        url: first,
        method: (options.method ?? 'GET').toUpperCase(),
        headers,
        body: options.body === undefined ? null : Buffer.from(options.body),
      };
      for (let redirects = 0; ; redirects++) {
        const answer = await exchange(hop, allowed, resolve, signal, maxBytes, options.allowedHosts === undefined ? agents : null);
        const location = answer.headers.get('location');
        if (!REDIRECTS.has(answer.status) || location === null) return { ...answer, url: hop.url.toString() };
        if (redirects >= maxRedirects) throw new GuardedFetchError('redirects', `more than ${String(maxRedirects)} redirects`);
        hop = nextHop(hop, answer.status, checkedUrl(location, hop.url), first);
      }
    } finally {
      clearTimeout(timer);
    }
  };
}

function lowerCased(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

/**
 * The request a redirect asks for: 303 (and 301/302 after a POST, as browsers do) turns into a GET without
 * a body; credentials go no further once the redirect leaves the first URL's origin.
 */
function nextHop(hop: Hop, status: number, target: URL, first: URL): Hop {
  const toGet = status === 303 ? hop.method !== 'HEAD' : (status === 301 || status === 302) && hop.method === 'POST';
  const dropped = new Set([...(target.origin === first.origin ? [] : CREDENTIALS), ...(toGet ? ['content-type', 'content-length'] : [])]);
  const headers = Object.fromEntries(Object.entries(hop.headers).filter(([name]) => !dropped.has(name)));
  return toGet ? { url: target, method: 'GET', headers, body: null } : { url: target, method: hop.method, headers, body: hop.body };
}
