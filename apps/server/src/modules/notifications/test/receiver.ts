import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request a receiver got, with whether its signature held for the secret it was checked with. */
export interface Received {
  path: string;
  id: string;
  body: unknown;
  verified: boolean;
}

/** How a path answers: a status (and body), after a delay, or never (the request hangs until the receiver closes). */
export type Answer = { status: number; delayMs?: number; body?: string } | 'hang';

/**
 * A webhook receiver on loopback, as a customer's would be: it verifies each request with the Standard
 * Webhooks library and the secret it was given for the path, and answers as the test says.
 */
export class TestReceiver {
  readonly received: Received[] = [];
  private readonly secrets = new Map<string, string>();
  private readonly answers = new Map<string, (request: Received) => Answer>();
  /** Requests a path has not answered yet, and the most it had at once. */
  private readonly open = new Map<string, { now: number; most: number }>();
  private server: http.Server | null = null;
  base = '';

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const path = req.url ?? '/';
        const headers = { 'webhook-id': String(req.headers['webhook-id']), 'webhook-timestamp': String(req.headers['webhook-timestamp']), 'webhook-signature': String(req.headers['webhook-signature']) };
        const secret = this.secrets.get(path);
        let verified = false;
        try {
          if (secret !== undefined) verified = new Webhook(secret).verify(text, headers) !== undefined;
        } catch {
          verified = false;
        }
        const request: Received = { path, id: headers['webhook-id'], body: JSON.parse(text) as unknown, verified };
        this.received.push(request);
        const answer = this.answers.get(path)?.(request) ?? { status: 200 };
        const open = this.open.get(path) ?? { now: 0, most: 0 };
        this.open.set(path, { now: open.now + 1, most: Math.max(open.most, open.now + 1) });
        res.on('close', () => {
          const left = this.open.get(path);
          if (left !== undefined) left.now -= 1;
        });
        if (answer === 'hang') return;
        setTimeout(() => {
          res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body ?? `answer ${String(answer.status)}`);
        }, answer.delayMs ?? 0);
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${String((this.server.address() as AddressInfo).port)}`;
  }

  /** Verifies what comes to `path` with `secret`. */
  expectSecret(path: string, secret: string): void {
    this.secrets.set(path, secret);
  }

  answer(path: string, how: (request: Received) => Answer): void {
    this.answers.set(path, how);
  }

  /** The most requests to `path` it had unanswered at once. */
  mostAtOnce(path: string): number {
    return this.open.get(path)?.most ?? 0;
  }

  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    const server = this.server;
    this.server = null;
    if (server === null) return;
    await new Promise<void>((resolve) => {
      server.close(() => {
        resolve();
      });
    });
  }
}
