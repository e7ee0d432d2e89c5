import { Agent, type Dispatcher } from 'undici';
import type { IncomingHttpHeaders } from 'node:http';
import type { LookupFunction } from 'node:net';
import { normalHost } from './allowedHosts.js';
import type { Deadline } from './deadline.js';
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
  body: Buffer | string | null;
}

export interface HopAnswer {
  status: number;
  headers: Headers;
  body: Buffer;
}

export interface KeptConnections {
  /** `bodyWanted`: whether an answer's body is read (not a redirect's or a HEAD's), by its status. */
  exchange(hop: Hop, deadline: Deadline, maxBytes: number, bodyWanted: (status: number) => boolean): Promise<HopAnswer>;
  close(): void;
}

/** An unwanted answer body read to drop it, at most; past that its connection is closed instead. */
const DROPPED_BODY_BYTES = 64 * 1024;

export function keptConnections(sockets: number, lookup: LookupFunction): KeptConnections {
  // One pool per origin, `sockets` connections each; a connection idle for 60 s is closed.
  const agent = new Agent({ connections: sockets, keepAliveTimeout: 60_000, connect: { lookup } });
  return {
    exchange(hop, deadline, maxBytes, bodyWanted) {
      return new Promise<HopAnswer>((resolve, reject) => {
        const handler = new AnswerHandler({ deadline, maxBytes, bodyWanted, url: hop.url, resolve, reject });
        try {
          agent.dispatch(
            {
              origin: originOf(hop.url),
              path: `${hop.url.pathname}${hop.url.search}`,
              method: hop.method,
              headers: hop.headers,
              body: hop.body,
              // The fetcher's deadline bounds the exchange; undici's own timers would only cut it shorter.
              headersTimeout: 0,
              bodyTimeout: 0,
            },
            handler,
          );
        } catch (error) {
          handler.failed(error instanceof Error ? error : new Error(String(error)));
        }
      });
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

interface AnswerWanted {
  deadline: Deadline;
  maxBytes: number;
  bodyWanted: (status: number) => boolean;
  url: URL;
  resolve: (answer: HopAnswer) => void;
  reject: (error: GuardedFetchError) => void;
}

/**
 * One exchange's answer, read as undici's connection hands it over: the status, the headers (turned into
 * Headers only when read) and the body, bounded. undici's request API built a stream and an async resource
 * for every answer: with it and a signal a request, the fetcher cost about twice the CPU a request of the bare
 * client (docs/notifications.md, "Sending").
 */
class AnswerHandler implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | null = null;
  private settled = false;
  private status = 0;
  private headers: IncomingHttpHeaders = {};
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private dropping = false;
  private readonly onEnd = (reason: Error): void => {
    // Still waiting for a connection: it ends now, and the request is dropped when its turn comes.
    if (this.controller === null) this.failed(reason);
    else this.controller.abort(reason);
  };

  constructor(private readonly wanted: AnswerWanted) {
    wanted.deadline.onEnd(this.onEnd);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.settled) controller.abort(new Error('the exchange has ended'));
    else if (this.wanted.deadline.reason !== null) controller.abort(this.wanted.deadline.reason);
  }

  onResponseStart(_controller: Dispatcher.DispatchController, status: number, headers: IncomingHttpHeaders): void {
    // An informational answer (100 Continue): the real one follows.
    if (status < 200) return;
    this.status = status;
    this.headers = headers;
    this.dropping = !this.wanted.bodyWanted(status);
    if (!this.dropping && Number(headers['content-length'] ?? '0') > this.wanted.maxBytes) {
      this.fail(new GuardedFetchError('too-large', `larger than ${String(this.wanted.maxBytes)} bytes`));
    }
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.settled) return;
    this.size += chunk.length;
    if (this.dropping) {
      // Read and dropped (a redirect's few bytes), so the connection stays usable; a large one closes it.
      if (this.size > DROPPED_BODY_BYTES) {
        this.answer(Buffer.alloc(0));
        this.controller?.abort(new Error('an unwanted answer body was too large to read'));
      }
      return;
    }
    if (this.size > this.wanted.maxBytes) this.fail(new GuardedFetchError('too-large', `larger than ${String(this.wanted.maxBytes)} bytes`));
    else this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    this.answer(this.dropping ? Buffer.alloc(0) : Buffer.concat(this.chunks, this.size));
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.failed(error);
  }

  /** The exchange failed without an answer (the connection, or undici refusing the request). */
  failed(error: Error): void {
    if (this.settled) return;
    this.settle();
    this.wanted.reject(failure(error, this.wanted.deadline, this.wanted.url));
  }

  private answer(body: Buffer): void {
    if (this.settled) return;
    this.settle();
    this.wanted.resolve(answerOf(this.status, this.headers, body));
  }

  /** Ends the exchange with an error of the fetcher's own; the connection is closed, its answer unread. */
  private fail(error: GuardedFetchError): void {
    this.settle();
    this.wanted.reject(error);
    this.controller?.abort(error);
  }

  private settle(): void {
    this.settled = true;
    this.wanted.deadline.onEnd(null);
  }
}

/** What an exchange that got no answer failed with, as the fetcher reports it. */
function failure(error: unknown, deadline: Deadline, url: URL): GuardedFetchError {
  if (deadline.reason !== null) return aborted(deadline.reason);
  if (error instanceof GuardedFetchError) return error;
  // A refusal by the guarded lookup arrives as the connection's error, sometimes wrapped.
  const cause = error instanceof Error ? error.cause : undefined;
  return unreachable(cause instanceof GuardedFetchError ? cause : error, url);
}

/**
 * An answer whose Headers are built when first read: a webhook's sender reads only the status and the body,
 * and building them was a few percent of its CPU a request.
 */
function answerOf(status: number, raw: IncomingHttpHeaders, body: Buffer): HopAnswer {
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

function headersOf(raw: IncomingHttpHeaders): Headers {
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
