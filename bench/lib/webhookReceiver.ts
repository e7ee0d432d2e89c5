import http from 'node:http';
import { Webhook } from 'standardwebhooks';
import type { BenchContext } from './benchmark.js';
import { freePort } from './freePort.js';

/*
 * The webhooks benchmark's receiver: one HTTP server on loopback serving every endpoint by path, as a
 * customer's own service would, each request checked with the Standard Webhooks library and the endpoint's
 * secret, counted per endpoint, duplicates found by webhook-id.
 */

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
  /** Requests whose signature the library refused (of every execution). */
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
    this.endpoints.set(path, { path, behaviour, webhook: null, tries: new Map(), byJob: new Map(), unverified: 0, lastBody: null });
  }

  secret(path: string, secret: string): void {
    const endpoint = this.endpoints.get(path);
    if (endpoint === undefined) throw new Error(`no endpoint ${path}`);
    endpoint.webhook = new Webhook(secret);
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
    try {
      if (endpoint.webhook === null) throw new Error('no secret yet');
      endpoint.webhook.verify(body, signed);
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

  /** Requests the library refused, over every endpoint. */
  unverified(): number {
    return [...this.endpoints.values()].reduce((sum, e) => sum + e.unverified, 0);
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server === null) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => { resolve(); }));
  }
}
