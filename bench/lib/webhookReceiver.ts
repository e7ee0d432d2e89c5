import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { Webhook } from 'standardwebhooks';
import type { BenchContext } from './benchmark.js';
import { freePort } from './freePort.js';

/*
 * The webhooks benchmark's receiver: one HTTP server on loopback serving every endpoint by path, as a
 * customer's own service would, each request's signature checked with the endpoint's secret, counted per
 * endpoint, duplicates found by webhook-id. Every request is checked with node:crypto's HMAC as Standard
 * Webhooks defines the signature, and every LIBRARY_EVERY-th request of an endpoint with the Standard Webhooks
 * library as well (either refusing counts it unverified): the library's HMAC is JavaScript, 70 to 130 µs a
 * request, and on a shared machine the receiver's CPU (a customer's, elsewhere) is taken from Parley's.
 */

/** Every this many requests of an endpoint (its first included) is also checked with the library. */
const LIBRARY_EVERY = 50;
/** Standard Webhooks' tolerance for a timestamp off the receiver's clock. */
const TOLERANCE_SECONDS = 300;
const SECRET_PREFIX = 'whsec_';

/** Standard Webhooks' check: a v1 signature among the header's that is the HMAC-SHA256 of `{id}.{timestamp}.{body}`. */
function signatureValid(key: Buffer, id: string, timestamp: string, body: string, header: string): boolean {
  const seconds = Number(timestamp);
  if (!Number.isInteger(seconds) || Math.abs(Date.now() / 1000 - seconds) > TOLERANCE_SECONDS) return false;
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return header.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    if (version !== 'v1' || signature === undefined) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** How an endpoint answers: at once with a status, or after a delay. */
export interface EndpointBehaviour {
  status: number;
  delayMs: number;
}

/** One event at one endpoint: the campaign execution its message belongs to, and each request's arrival (ms). */
export interface EventTries {
  jobId: string | null;
  at: number[];
}

/** What one endpoint got of one execution's events. */
export interface EndpointCounts {
  /** Verified requests. */
  requests: number;
  /** Distinct webhook-ids. */
  events: number;
  /** Requests for a webhook-id this endpoint had answered 2xx before (the sender sent it again). */
  duplicates: number;
  /** When the first and the last event first arrived (Date.now()). */
  firstAt: number | null;
  lastAt: number | null;
}

interface Endpoint {
  path: string;
  behaviour: EndpointBehaviour;
  webhook: Webhook | null;
  /** The secret's key, for the check of every request. */
  key: Buffer | null;
  /** Requests so far (of every execution). */
  seen: number;
  /** Requests the library checked too. */
  libraryChecked: number;
  /** Requests whose signature was refused (of every execution). */
  unverified: number;
  tries: Map<string, EventTries>;
  /** Distinct events by execution, kept as they come for progress. */
  byJob: Map<string | null, number>;
  /** The last verified body, which the baseline sends again. */
  lastBody: string | null;
}

const jobIdOf = (body: string): string | null => {
  const parsed = JSON.parse(body) as { data?: { message?: { jobId?: string | null } } };
  return parsed.data?.message?.jobId ?? null;
};

export class WebhookReceiver {
  private readonly endpoints = new Map<string, Endpoint>();
  private server: http.Server | null = null;
  base = '';
  /** Requests so far, over every endpoint. */
  total = 0;

  /** Serves `path` as `behaviour` says; requests are verified once its secret is given. */
  endpoint(path: string, behaviour: EndpointBehaviour): void {
    this.endpoints.set(path, { path, behaviour, webhook: null, key: null, seen: 0, libraryChecked: 0, tries: new Map(), byJob: new Map(), unverified: 0, lastBody: null });
  }

  secret(path: string, secret: string): void {
    const endpoint = this.endpoints.get(path);
    if (endpoint === undefined) throw new Error(`no endpoint ${path}`);
    endpoint.webhook = new Webhook(secret);
    endpoint.key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  }

  async start(context: BenchContext): Promise<void> {
    const server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const endpoint = this.endpoints.get(request.url ?? '');
        if (endpoint === undefined) {
          response.writeHead(404).end();
          return;
        }
        this.count(endpoint, Buffer.concat(chunks).toString('utf8'), request.headers);
        const answer = (): void => {
          response.writeHead(endpoint.behaviour.status, { 'content-type': 'text/plain' }).end(endpoint.behaviour.status < 300 ? 'ok' : 'failing');
        };
        if (endpoint.behaviour.delayMs > 0) setTimeout(answer, endpoint.behaviour.delayMs);
        else answer();
      });
    });
    // The sender keeps its connections open; the receiver keeps them as long as a busy service would.
    server.keepAliveTimeout = 30_000;
    const port = await freePort('127.0.0.1');
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    this.server = server;
    this.base = `http://127.0.0.1:${String(port)}`;
    context.scope.defer(() => this.stop());
  }

  private count(endpoint: Endpoint, body: string, headers: http.IncomingHttpHeaders): void {
    const now = Date.now();
    this.total += 1;
    const id = String(headers['webhook-id']);
    const signed = { 'webhook-id': id, 'webhook-timestamp': String(headers['webhook-timestamp']), 'webhook-signature': String(headers['webhook-signature']) };
    const byLibrary = endpoint.seen % LIBRARY_EVERY === 0;
    endpoint.seen += 1;
    try {
      if (endpoint.webhook === null || endpoint.key === null) throw new Error('no secret yet');
      if (!signatureValid(endpoint.key, id, signed['webhook-timestamp'], body, signed['webhook-signature'])) throw new Error('no matching signature');
      if (byLibrary) {
        endpoint.libraryChecked += 1;
        endpoint.webhook.verify(body, signed);
      }
    } catch {
      endpoint.unverified += 1;
      return;
    }
    endpoint.lastBody = body;
    const tries = endpoint.tries.get(id);
    if (tries !== undefined) {
      tries.at.push(now);
      return;
    }
    const jobId = jobIdOf(body);
    endpoint.tries.set(id, { jobId, at: [now] });
    endpoint.byJob.set(jobId, (endpoint.byJob.get(jobId) ?? 0) + 1);
  }

  /** What `path` got of the execution `jobId`'s events. */
  counts(path: string, jobId: string): EndpointCounts {
    const endpoint = this.endpoints.get(path);
    if (endpoint === undefined) throw new Error(`no endpoint ${path}`);
    const counts: EndpointCounts = { requests: 0, events: 0, duplicates: 0, firstAt: null, lastAt: null };
    // A healthy endpoint answered the first request: each later one is a duplicate. A failing one's are its retries.
    const healthy = endpoint.behaviour.status < 300;
    for (const tries of endpoint.tries.values()) {
      if (tries.jobId !== jobId) continue;
      const first = tries.at[0] ?? 0;
      counts.requests += tries.at.length;
      counts.events += 1;
      if (healthy) counts.duplicates += tries.at.length - 1;
      counts.firstAt = Math.min(counts.firstAt ?? first, first);
      counts.lastAt = Math.max(counts.lastAt ?? first, first);
    }
    return counts;
  }

  /** Events of `jobId` at `path` so far (cheaper than counts, for progress). */
  events(path: string, jobId: string): number {
    return this.endpoints.get(path)?.byJob.get(jobId) ?? 0;
  }

  /** Each event's tries at `path`. */
  tries(path: string): ReadonlyMap<string, EventTries> {
    return this.endpoints.get(path)?.tries ?? new Map<string, EventTries>();
  }

  /** The last body `path` verified. */
  lastBody(path: string): string | null {
    return this.endpoints.get(path)?.lastBody ?? null;
  }

  /** Requests whose signature was refused, over every endpoint. */
  unverified(): number {
    return [...this.endpoints.values()].reduce((sum, e) => sum + e.unverified, 0);
  }

  /** Requests the Standard Webhooks library checked too, over every endpoint. */
  libraryChecked(): number {
    return [...this.endpoints.values()].reduce((sum, e) => sum + e.libraryChecked, 0);
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server === null) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => { resolve(); }));
  }
}
