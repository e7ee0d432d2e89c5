import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request caught as Zapier's hooks host hands it to a trigger: headers `Http-`-prefixed, the body as sent. */
export interface Caught {
  path: string;
  headers: Record<string, string>;
  content: string;
}

/** Stands in for Zapier's hooks host on loopback: it keeps each POST and answers 200. */
export class HookCatcher {
  readonly caught: Caught[] = [];
  private server: http.Server | null = null;
  base = '';

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(req.headers)) {
          const words = name.split('-').map((w) => `${w.charAt(0).toUpperCase()}${w.slice(1)}`);
          headers[`Http-${words.join('-')}`] = Array.isArray(value) ? value.join(', ') : (value ?? '');
        }
        this.caught.push({ path: req.url ?? '/', headers, content: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"success"}');
      });
    });
    const server = this.server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  }

  at(path: string): Caught[] {
    return this.caught.filter((c) => c.path === path);
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server === null) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => {
      server.close(() => {
        resolve();
      });
    });
  }
}
