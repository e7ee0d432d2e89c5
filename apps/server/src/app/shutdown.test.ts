import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { startTestServer } from '../test/server.js';

/*
 * A stop gives requests in flight SHUTDOWN_TIMEOUT_MS and then cuts what is left: a client that sends half a
 * request and goes quiet must not hold the process (docs/deployment.md). Only HTTP is at stake here, so the
 * embedded database is enough.
 */
describe('stopping the server', () => {
  it('cuts a connection whose request never ends once the shutdown time is up', async () => {
    const server = await startTestServer('pglite', { SHUTDOWN_TIMEOUT_MS: '1000' });
    const { port } = new URL(server.baseUrl);
    const socket = net.connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve).once('error', reject);
    });
    const closed = new Promise<void>((resolve) => socket.once('close', () => {
      resolve();
    }));
    // Whatever the server answers is read and dropped, so the socket can see its end.
    socket.resume();
    // Headers promise a body that never comes: the request stays in flight.
    socket.write('POST /v1/signup HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":');
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Without the cut, this waits for the client for good (Fastify sets no request timeout).
    await server.stop();
    await closed;
    expect(socket.destroyed).toBe(true);
  }, 60_000);
});
