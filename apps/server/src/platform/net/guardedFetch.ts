import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { addressRefusal, guardedLookup, systemResolver, type Resolver } from './addressPolicy.js';
import { allowedHostsFrom, mergeAllowedHosts, normalHost, type AllowedHosts } from './allowedHosts.js';
import { Deadline } from './deadline.js';
import { aborted, GuardedFetchError, unreachable } from './guardedFetchError.js';
import { keptConnections, type Hop, type HopAnswer, type KeptConnections } from './keptConnections.js';

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

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Headers that carry credentials: never sent on to another origin than the first. */
const CREDENTIALS = ['authorization', 'cookie', 'proxy-authorization'];

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

/** Why a URL's host may not be reached when it is a literal address (null: it may, or it is a name). */
function literalRefusal(allowed: AllowedHosts, url: URL): string | null {
  const host = normalHost(url.hostname);
  // A literal address never goes through the lookup: it is checked here. (URL has already turned odd IPv4
  // spellings such as 2130706433 or 0x7f.1 into the dotted form.)
  return isIP(host) === 0 ? null : addressRefusal(allowed, host, host);
}

/** One request on a connection of its own, and its answer, the body read (but not a redirect's or a HEAD's). */
function exchange(hop: Hop, allowed: AllowedHosts, resolve: Resolver, signal: AbortSignal, maxBytes: number): Promise<HopAnswer> {
  const host = normalHost(hop.url.hostname);
  return new Promise<HopAnswer>((resolvePromise, reject) => {
    let settled = false;
    const finish = (error: unknown, answer?: HopAnswer): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      if (answer !== undefined) resolvePromise(answer);
      else reject(unreachable(error, hop.url));
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
        // A connection of its own, made through the guarded lookup.
        agent: false,
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
      finish(aborted(signal.reason));
      request.destroy();
    };
    // Listened to first: a request destroyed before it is sent still reports its error here.
    request.on('error', (error) => {
      finish(error);
    });
    if (signal.aborted) {
      onAbort();
      return;
    }
    signal.addEventListener('abort', onAbort);
    request.end(hop.body ?? undefined);
  });
}

/**
 * A fetcher with the operator's allowed hosts. Each call sends one request (following redirects), reads
 * the whole answer and resolves with it whatever its status; it rejects with a GuardedFetchError only when
 * there is no answer to give (refused by the guard, too large, too slow, unreachable).
 */
export function createGuardedFetch(settings: GuardedFetchSettings = {}): GuardedFetch {
  return fetcher(settings, settings.keepAliveSockets === undefined ? null : keptFor(settings, settings.keepAliveSockets));
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
  const pools = new Map<string, { fetch: GuardedFetch; kept: KeptConnections }>();
  const close = (name: string): void => {
    const pool = pools.get(name);
    if (pool === undefined) return;
    pools.delete(name);
    pool.kept.close();
  };
  return {
    pool(name) {
      let pool = pools.get(name);
      if (pool === undefined) {
        const kept = keptFor(settings, settings.keepAliveSockets);
        pool = { fetch: fetcher(settings, kept), kept };
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

/** Kept-open connections, each made through the guarded lookup with the operator's allowed hosts. */
const keptFor = (settings: GuardedFetchSettings, sockets: number): KeptConnections =>
  keptConnections(sockets, guardedLookup(allowedHostsFrom(settings.allowedHosts ?? []), settings.resolve ?? systemResolver));

function fetcher(settings: GuardedFetchSettings, kept: KeptConnections | null): GuardedFetch {
  const configured = allowedHostsFrom(settings.allowedHosts ?? []);
  const resolve = settings.resolve ?? systemResolver;
  // Hosts judged with the fetcher's own allowed hosts: a sender asks again for every request to the same few.
  const judged = new Map<string, string | null>();
  const refusalOf = (url: URL, allowed: AllowedHosts): string | null => {
    if (allowed !== configured) return literalRefusal(allowed, url);
    let refusal = judged.get(url.hostname);
    if (refusal === undefined) {
      refusal = literalRefusal(allowed, url);
      if (judged.size >= 1000) judged.clear();
      judged.set(url.hostname, refusal);
    }
    return refusal;
  };
  return async (url, options = {}) => {
    const allowed = options.allowedHosts === undefined ? configured : mergeAllowedHosts(configured, options.allowedHosts);
    const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const deadline = new Deadline(timeoutMs, options.signal);
    try {
      const first = checkedUrl(url);
      const headers: Record<string, string> = { 'user-agent': 'Parley', ...lowerCased(options.headers ?? {}) };
      let hop: Hop = {
        url: first,
        method: (options.method ?? 'GET').toUpperCase(),
        headers,
        body: options.body === undefined ? null : typeof options.body === 'string' ? options.body : Buffer.from(options.body),
      };
      for (let redirects = 0; ; redirects++) {
        const refusal = refusalOf(hop.url, allowed);
        if (refusal !== null) throw new GuardedFetchError('blocked', refusal);
        // Only calls without hosts of their own share the kept connections: those were judged with the fetcher's.
        const answer =
          kept !== null && options.allowedHosts === undefined
            ? await kept.exchange(hop, deadline, maxBytes, (status) => !REDIRECTS.has(status) && hop.method !== 'HEAD')
            : await exchange(hop, allowed, resolve, deadline.signal, maxBytes);
        // The status first: an answer's headers are built only when read (keptConnections.ts).
        const location = REDIRECTS.has(answer.status) ? answer.headers.get('location') : null;
        if (location === null) return responseOf(answer, hop.url);
        if (redirects >= maxRedirects) throw new GuardedFetchError('redirects', `more than ${String(maxRedirects)} redirects`);
        hop = nextHop(hop, answer.status, checkedUrl(location, hop.url), first);
      }
    } finally {
      deadline.clear();
    }
  };
}

/** The answer as the caller gets it; its headers still built only when read. */
function responseOf(answer: HopAnswer, url: URL): GuardedResponse {
  return {
    status: answer.status,
    get headers() {
      return answer.headers;
    },
    url: url.toString(),
    body: answer.body,
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
