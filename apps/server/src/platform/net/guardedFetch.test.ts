import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemResolver, type Resolver } from './addressPolicy.js';
import { allowedHostsFrom } from './allowedHosts.js';
import { createGuardedFetch, GuardedFetchError, type GuardedFetch, type GuardedFetchErrorKind, type GuardedFetchSettings } from './guardedFetch.js';

interface Seen {
  method: string;
  path: string;
  authorization: string | undefined;
  body: string;
}

/** A local HTTP server answering by path, recording every request it gets. */
class Peer {
  readonly seen: Seen[] = [];
  readonly routes = new Map<string, (req: http.IncomingMessage, res: http.ServerResponse) => void>();
  readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      this.seen.push({ method: req.method ?? '', path, authorization: req.headers.authorization, body: Buffer.concat(chunks).toString() });
      const route = this.routes.get(path);
      if (route) route(req, res);
      else res.writeHead(404).end('not here');
    });
  });
  port = 0;

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  paths(): string[] {
    return this.seen.map((s) => s.path);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => {
      this.server.close(() => {
        resolve();
      });
    });
  }
}

/** Names of the tests' own, resolving to what the table says (as a public DNS name could); others as usual. */
const resolver =
  (table: Record<string, string[]>): Resolver =>
  (hostname) => {
    const addresses = table[hostname];
    if (addresses === undefined) return systemResolver(hostname);
    return Promise.resolve(addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  };

async function failure(promise: Promise<unknown>): Promise<GuardedFetchError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof GuardedFetchError) return error;
    throw error;
  }
  throw new Error('the fetch succeeded');
}

const expectFailure = async (promise: Promise<unknown>, kind: GuardedFetchErrorKind, message?: RegExp): Promise<GuardedFetchError> => {
  const error = await failure(promise);
  expect({ kind: error.kind, message: error.message }).toMatchObject({ kind, ...(message === undefined ? {} : { message: expect.stringMatching(message) as string }) });
  return error;
};

// Every rule holds for both ways of connecting: a connection per request, and kept-open connections.
describe.each([
  { connecting: 'a connection per request', keepAliveSockets: undefined },
  { connecting: 'kept-open connections', keepAliveSockets: 2 },
])('the guarded fetcher, $connecting', ({ keepAliveSockets }) => {
  const guarded = (settings: GuardedFetchSettings): GuardedFetch => createGuardedFetch({ ...settings, keepAliveSockets });
  const peer = new Peer();
  const other = new Peer();
  let base = '';

  beforeAll(async () => {
    await Promise.all([peer.start(), other.start()]);
    base = `http://127.0.0.1:${String(peer.port)}`;
    peer.routes.set('/secret', (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('internal'));
    peer.routes.set('/ok', (_req, res) => res.writeHead(200, { 'content-type': 'text/plain', 'x-peer': 'yes' }).end('hello'));
  });
  afterAll(async () => {
    await Promise.all([peer.close(), other.close()]);
  });

  it('keeps connections open when asked, and still judges a name on each new connection', async () => {
    const connections = { count: 0 };
    const counted = (): void => {
      connections.count += 1;
    };
    // The peer's server counts the connections it accepts.
    const server = peer.server;
    server.on('connection', counted);
    try {
      const fetch = createGuardedFetch({
        allowedHosts: ['hooks.example.test'],
        // One per origin: the requests one after another all go on it.
        keepAliveSockets: 1,
        resolve: resolver({ 'hooks.example.test': ['127.0.0.1'], 'evil.example.test': ['127.0.0.1'] }),
      });
      const port = String(peer.port);
      for (let i = 0; i < 5; i += 1) expect((await fetch(`http://hooks.example.test:${port}/ok`)).status).toBe(200);
      expect(connections.count).toBe(1);
      // Another name that resolves to the same address is judged when it connects: refused, never given the open connection.
      await expectFailure(fetch(`http://evil.example.test:${port}/ok`), 'blocked', /which is not a public address/);
      const single = createGuardedFetch({ allowedHosts: ['hooks.example.test'], resolve: resolver({ 'hooks.example.test': ['127.0.0.1'] }) });
      for (let i = 0; i < 2; i += 1) expect((await single(`http://hooks.example.test:${port}/ok`)).status).toBe(200);
      expect(connections.count).toBe(3);
    } finally {
      server.off('connection', counted);
      // The other tests read what the peer saw.
      peer.seen.length = 0;
    }
  });

  it('refuses this machine, private networks and the metadata service, in every spelling, before connecting', async () => {
    const fetch = guarded({});
    const port = String(peer.port);
    const refused = [
      `${base}/secret`,
      `http://127.1.2.3:${port}/secret`,
      `http://localhost:${port}/secret`,
      `http://LOCALHOST.:${port}/secret`,
      `http://[::1]:${port}/secret`,
      `http://[::ffff:127.0.0.1]:${port}/secret`,
      `http://[::ffff:7f00:1]:${port}/secret`,
      `http://[64:ff9b::7f00:1]:${port}/secret`,
      `http://[2002:7f00:1::1]:${port}/secret`,
      `http://2130706433:${port}/secret`,
      `http://0x7f.1:${port}/secret`,
      `http://0177.0.0.1:${port}/secret`,
      `http://0.0.0.0:${port}/secret`,
      `http://[::]:${port}/secret`,
      'http://10.0.0.1/',
      'http://172.16.5.4/',
      'http://192.168.1.1/',
      'http://100.64.0.1/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[fe80::1]/',
      'http://[fd00::1]/',
      'http://224.0.0.1/',
      'https://255.255.255.255/',
    ];
    for (const url of refused) {
      const error = await expectFailure(fetch(url), 'blocked', /is not a public address|which is not a public address/);
      expect(error.retryable, url).toBe(false);
    }
    expect(peer.seen).toEqual([]);
  });

  it('refuses a name when any of its addresses is not public, checked when it connects', async () => {
    const lookups: string[] = [];
    const table = resolver({ 'mixed.example.test': ['93.184.216.34', '127.0.0.1'], 'inside.example.test': ['10.1.2.3'] });
    const fetch = guarded({
      resolve: (name) => {
        lookups.push(name);
        return table(name);
      },
    });
    await expectFailure(fetch(`http://mixed.example.test:${String(peer.port)}/secret`), 'blocked', /mixed\.example\.test resolves to 127\.0\.0\.1, which is not a public address \(loopback\)/);
    await expectFailure(fetch('http://inside.example.test/'), 'blocked', /\(private\)/);
    // Resolved by the connection itself, once each: nothing to rebind between a check and the connect.
    expect(lookups).toEqual(['mixed.example.test', 'inside.example.test']);
    expect(peer.seen).toEqual([]);
  });

  it('fetches only http and https', async () => {
    const fetch = guarded({ allowedHosts: ['127.0.0.1'] });
    for (const url of ['file:///etc/passwd', 'ftp://ftp.example.com/file', 'data:text/plain,hello', 'gopher://127.0.0.1:70/', 'javascript:alert(1)']) {
      const error = await expectFailure(fetch(url), 'scheme');
      expect(error.retryable).toBe(false);
    }
    await expectFailure(fetch('not a url'), 'invalid-url');
    await expectFailure(fetch('/relative/path'), 'invalid-url');
  });

  it('fetches a host the operator allows, by address, block or name, and one a call allows', async () => {
    const byAddress = await guarded({ allowedHosts: ['127.0.0.1'] })(`${base}/ok`);
    expect(byAddress).toMatchObject({ status: 200, url: `${base}/ok` });
    expect(byAddress.body.toString()).toBe('hello');
    expect(byAddress.headers.get('x-peer')).toBe('yes');

    expect((await guarded({ allowedHosts: ['127.0.0.0/8'] })(`${base}/ok`)).status).toBe(200);

    const named = guarded({ allowedHosts: ['carrier.corp.test'], resolve: resolver({ 'carrier.corp.test': ['127.0.0.1'], 'other.corp.test': ['127.0.0.1'] }) });
    expect((await named(`http://carrier.corp.test:${String(peer.port)}/ok`)).status).toBe(200);
    await expectFailure(named(`http://other.corp.test:${String(peer.port)}/ok`), 'blocked');

    const plain = guarded({});
    await expectFailure(plain(`${base}/ok`), 'blocked');
    expect((await plain(`${base}/ok`, { allowedHosts: allowedHostsFrom(['127.0.0.1']) })).status).toBe(200);
    // Any status is an answer: the caller decides what it means.
    expect((await plain(`${base}/missing`, { allowedHosts: allowedHostsFrom(['127.0.0.1']) })).status).toBe(404);
  });

  it('checks every redirect: a public-looking host that sends the request to this machine is refused', async () => {
    const port = String(peer.port);
    // The first host stands in for a public one: the tests' own name, allowed, that reaches the local peer.
    const fetch = guarded({ allowedHosts: ['media.carrier.test'], resolve: resolver({ 'media.carrier.test': ['127.0.0.1'], 'rebound.example.test': ['127.0.0.1'] }) });
    const targets: Record<string, string> = {
      '/to-loopback': `http://127.0.0.1:${port}/secret`,
      '/to-localhost': `http://localhost:${port}/secret`,
      '/to-metadata': 'http://169.254.169.254/latest/meta-data/',
      '/to-name': `http://rebound.example.test:${port}/secret`,
      '/to-mapped': `http://[::ffff:127.0.0.1]:${port}/secret`,
      '/to-file': 'file:///etc/passwd',
    };
    for (const [path, location] of Object.entries(targets)) peer.routes.set(path, (_req, res) => res.writeHead(302, { location }).end());
    const before = peer.seen.length;
    for (const path of Object.keys(targets)) {
      await expectFailure(fetch(`http://media.carrier.test:${port}${path}`), path === '/to-file' ? 'scheme' : 'blocked');
    }
    expect(peer.seen.slice(before).map((s) => s.path)).toEqual(Object.keys(targets));
  });

  it('follows redirects within a limit, and keeps credentials to the first origin', async () => {
    const fetch = guarded({ allowedHosts: ['127.0.0.1'] });
    const otherBase = `http://127.0.0.1:${String(other.port)}`;
    peer.routes.set('/same-origin', (_req, res) => res.writeHead(301, { location: '/ok' }).end());
    peer.routes.set('/elsewhere', (_req, res) => res.writeHead(307, { location: `${otherBase}/storage` }).end());
    other.routes.set('/storage', (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end('png'));
    other.routes.set('/back', (_req, res) => res.writeHead(302, { location: `${base}/ok` }).end());
    peer.routes.set('/leave-and-return', (_req, res) => res.writeHead(302, { location: `${otherBase}/back` }).end());
    peer.routes.set('/loop', (_req, res) => res.writeHead(302, { location: '/loop' }).end());
    const authorization = 'Basic c2VjcmV0OnRva2Vu';

    const same = await fetch(`${base}/same-origin`, { headers: { Authorization: authorization } });
    expect(same).toMatchObject({ status: 200, url: `${base}/ok` });
    expect(peer.seen.at(-1)).toMatchObject({ path: '/ok', authorization });

    const moved = await fetch(`${base}/elsewhere`, { headers: { Authorization: authorization } });
    expect(moved).toMatchObject({ status: 200, url: `${otherBase}/storage` });
    expect(moved.body.toString()).toBe('png');
    expect(other.seen.at(-1)).toMatchObject({ path: '/storage', authorization: undefined });

    // Once they left the first origin, credentials do not come back with a redirect home.
    await fetch(`${base}/leave-and-return`, { headers: { authorization } });
    expect(peer.seen.at(-1)).toMatchObject({ path: '/ok', authorization: undefined });

    await expectFailure(fetch(`${base}/loop`), 'redirects', /more than 5 redirects/);
    await expectFailure(fetch(`${base}/same-origin`, { maxRedirects: 0 }), 'redirects');
  });

  it('turns a POST into a GET on a 303, and keeps it on a 307', async () => {
    const fetch = guarded({ allowedHosts: ['127.0.0.1'] });
    peer.routes.set('/see-other', (_req, res) => res.writeHead(303, { location: '/ok' }).end());
    peer.routes.set('/temporary', (_req, res) => res.writeHead(307, { location: '/echo' }).end());
    peer.routes.set('/echo', (_req, res) => res.writeHead(200).end());
    await fetch(`${base}/see-other`, { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } });
    expect(peer.seen.slice(-2).map((s) => [s.method, s.path, s.body])).toEqual([
      ['POST', '/see-other', '{"a":1}'],
      ['GET', '/ok', ''],
    ]);
    await fetch(`${base}/temporary`, { method: 'POST', body: '{"a":2}' });
    expect(peer.seen.slice(-2).map((s) => [s.method, s.path, s.body])).toEqual([
      ['POST', '/temporary', '{"a":2}'],
      ['POST', '/echo', '{"a":2}'],
    ]);
  });

  it('refuses an answer larger than the limit, declared or streamed', async () => {
    const fetch = guarded({ allowedHosts: ['127.0.0.1'] });
    peer.routes.set('/declared', (_req, res) => res.writeHead(200, { 'content-length': '2000' }).end(Buffer.alloc(2000)));
    peer.routes.set('/streamed', (_req, res) => {
      res.writeHead(200);
      const write = (n: number): void => {
        if (n === 0 || res.destroyed) {
          res.end();
          return;
        }
        res.write(Buffer.alloc(500), () => {
          write(n - 1);
        });
      };
      write(10);
    });
    for (const path of ['/declared', '/streamed']) {
      const error = await expectFailure(fetch(`${base}${path}`, { maxBytes: 1000 }), 'too-large', /larger than 1000 bytes/);
      expect(error.retryable).toBe(false);
    }
    expect((await fetch(`${base}/declared`, { maxBytes: 2000 })).body.length).toBe(2000);
  });

  it('gives up on a slow answer at the deadline, and says a retry may work', async () => {
    const fetch = guarded({ allowedHosts: ['127.0.0.1'] });
    peer.routes.set('/silent', () => undefined);
    peer.routes.set('/dribble', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('a');
    });
    for (const path of ['/silent', '/dribble']) {
      const started = Date.now();
      const error = await expectFailure(fetch(`${base}${path}`, { timeoutMs: 300 }), 'timeout', /within 300 ms/);
      expect(error.retryable).toBe(true);
      expect(Date.now() - started).toBeLessThan(5_000);
    }
  });

  it('gives up at the deadline on requests still waiting for a kept connection', async () => {
    const fetch = guarded({ allowedHosts: ['127.0.0.1'] });
    peer.routes.set('/hold', () => undefined);
    const started = Date.now();
    // More requests than kept connections (2): the last ones wait for one that never comes free in time.
    const errors = await Promise.all([1, 2, 3, 4].map(() => expectFailure(fetch(`${base}/hold`, { timeoutMs: 300 }), 'timeout', /within 300 ms/)));
    expect(errors).toHaveLength(4);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect((await fetch(`${base}/ok`)).status).toBe(200);
  });

  it("stops when the caller's signal aborts, before the request or while it waits", async () => {
    const fetch = guarded({ allowedHosts: ['127.0.0.1'] });
    peer.routes.set('/never', () => undefined);
    const before = peer.seen.length;
    const early = new AbortController();
    early.abort(new Error('the worker is stopping'));
    await expectFailure(fetch(`${base}/ok`, { signal: early.signal }), 'timeout', /aborted: the worker is stopping/);
    // An aborted call sends nothing.
    expect(peer.seen.length).toBe(before);

    const late = new AbortController();
    const started = Date.now();
    const pending = fetch(`${base}/never`, { signal: late.signal, timeoutMs: 20_000 });
    setTimeout(() => {
      late.abort(new Error('the caller gave up'));
    }, 200);
    await expectFailure(pending, 'timeout', /aborted: the caller gave up/);
    expect(Date.now() - started).toBeLessThan(5_000);
    // The fetcher still works afterwards.
    expect((await fetch(`${base}/ok`)).status).toBe(200);
  });

  it("reads the answer's headers, and follows a redirect whose body is too large to read", async () => {
    const fetch = guarded({ allowedHosts: ['127.0.0.1'] });
    peer.routes.set('/heavy-redirect', (_req, res) => res.writeHead(302, { location: '/ok', 'content-type': 'text/plain' }).end(Buffer.alloc(200 * 1024, 'x')));
    const answer = await fetch(`${base}/heavy-redirect`);
    expect(answer).toMatchObject({ status: 200, url: `${base}/ok` });
    expect(answer.body.toString()).toBe('hello');
    expect([answer.headers.get('content-type'), answer.headers.get('x-peer')]).toEqual(['text/plain', 'yes']);
    expect((await fetch(`${base}/ok`)).body.toString()).toBe('hello');
  });

  it('says a retry may work when nothing answers', async () => {
    const closed = new Peer();
    await closed.start();
    const port = closed.port;
    await closed.close();
    const error = await expectFailure(guarded({ allowedHosts: ['127.0.0.1'] })(`http://127.0.0.1:${String(port)}/`), 'unreachable');
    expect(error.retryable).toBe(true);
  });
});
