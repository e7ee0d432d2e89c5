import { Agent } from 'undici';
import type { LookupFunction } from 'node:net';
import { normalHost } from './allowedHosts.js';
import { aborted, GuardedFetchError, unreachable } from './guardedFetchError.js';

/*
 * Kept-open connections for the guarded fetcher (guardedFetch.ts): senders of thousands of requests to one
 * receiver (webhooks). undici's client spends about half the CPU per request of node:http's (measured in
 * docs/notifications.md, "Sending"). Every new connection is made through the guarded lookup, as node:http's
 * are; a literal address is checked by the fetcher before the request.
 */

/** One request the fetcher sends: a hop of its redirects. */
export interface Hop {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: Buffer | null;
}

export interface HopAnswer {
  status: number;
  headers: Headers;
  body: Buffer;
}

export interface KeptConnections {
  /** `bodyWanted`: whether an answer's body is read (not a redirect's or a HEAD's), by its status. */
  exchange(hop: Hop, signal: AbortSignal, maxBytes: number, bodyWanted: (status: number) => boolean): Promise<HopAnswer>;
  close(): void;
}

/** An unwanted answer body read to drop it, at most; past that its connection is closed instead. */
const DROPPED_BODY_BYTES = 64 * 1024;

export function keptConnections(sockets: number, lookup: LookupFunction): KeptConnections {
  // One pool per origin, `sockets` connections each; a connection idle for 60 s is closed.
  const agent = new Agent({ connections: sockets, keepAliveTimeout: 60_000, connect: { lookup } });
  return {
    async exchange(hop, signal, maxBytes, bodyWanted) {
      let answer;
      try {
        answer = await agent.request({
          origin: originOf(hop.url),
          path: `${hop.url.pathname}${hop.url.search}`,
          method: hop.method,
          headers: hop.headers,
          body: hop.body,
          signal,
          // The fetcher's deadline bounds the exchange; undici's own timers would only cut it shorter.
          headersTimeout: 0,
          bodyTimeout: 0,
        });
      } catch (error) {
        throw failure(error, signal, hop.url);
      }
      const raw = answer.headers;
      if (!bodyWanted(answer.statusCode)) {
        // Read and dropped (a redirect's few bytes), so the connection stays usable; a large one closes it.
        await answer.body.dump({ limit: DROPPED_BODY_BYTES, signal }).catch(() => undefined);
        return answerOf(answer.statusCode, raw, Buffer.alloc(0));
      }
      if (Number(raw['content-length'] ?? '0') > maxBytes) {
        discard(answer.body);
        throw new GuardedFetchError('too-large', `larger than ${String(maxBytes)} bytes`);
      }
      return answerOf(answer.statusCode, raw, await bounded(answer.body, maxBytes, signal, hop.url));
    },
    close() {
      agent.destroy().catch(() => undefined);
    },
  };
}

/** The origin connected to, its host as the guard judges it (`LOCALHOST.` is `localhost`), as node:http's requests do. */
function originOf(url: URL): string {
  const host = normalHost(url.hostname);
  return `${url.protocol}//${host.includes(':') ? `[${host}]` : host}${url.port === '' ? '' : `:${url.port}`}`;
}

/** The answer's body, read whole unless it grows past `maxBytes`. */
function bounded(body: NodeJS.ReadableStream & { destroy(): void }, maxBytes: number, signal: AbortSignal, url: URL): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        discard(body);
        reject(new GuardedFetchError('too-large', `larger than ${String(maxBytes)} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    body.on('end', () => {
      resolve(Buffer.concat(chunks, size));
    });
    body.on('error', (error: unknown) => {
      reject(failure(error, signal, url));
    });
  });
}

/** Closes an answer's body (and its connection); undici reports that as an error no one needs. */
function discard(body: NodeJS.ReadableStream & { destroy(): void }): void {
  body.on('error', () => undefined);
  body.destroy();
}

/** What an exchange that got no answer failed with, as the fetcher reports it. */
function failure(error: unknown, signal: AbortSignal, url: URL): GuardedFetchError {
  if (signal.aborted) return aborted(signal.reason);
  // A refusal by the guarded lookup arrives as the connection's error, sometimes wrapped.
  const cause = error instanceof Error ? error.cause : undefined;
  return unreachable(cause instanceof GuardedFetchError ? cause : error, url);
}

type RawHeaders = Record<string, string | string[] | undefined>;

/**
 * An answer whose Headers are built when first read: a webhook's sender reads only the status and the body,
 * and building them was a few percent of its CPU a request.
 */
function answerOf(status: number, raw: RawHeaders, body: Buffer): HopAnswer {
  let headers: Headers | null = null;
  return {
    status,
    get headers() {
      headers ??= headersOf(raw);
      return headers;
    },
    body,
  };
}

function headersOf(raw: RawHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    try {
      if (typeof value === 'string') headers.append(name, value);
      else for (const one of value) headers.append(name, one);
    } catch {
      // A header the Headers class refuses (an invalid name or value) is left out.
    }
  }
  return headers;
}
