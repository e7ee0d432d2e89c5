import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ClientToServerEvents, OutboxEventPayload, ServerToClientEvents } from '@parley/shared';
import { Server } from 'socket.io';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRealtimeConnection, type RealtimeConnection, type RealtimeLog, type RealtimeStatus } from './connection';

/*
 * Against a real socket.io server that behaves as apps/server/src/modules/realtime/realtimeServer.ts does: it refuses a bad token
 * with 'unauthorized', joins the account named in the handshake, announces 'ready', and moves the socket on
 * 'subscribe'.
 */

const GOOD = 'good-token';

interface TestServer {
  url: string;
  io: Server<ClientToServerEvents, ServerToClientEvents>;
  handshakes: unknown[];
  subscriptions: string[];
  close: () => Promise<void>;
}

async function startServer(): Promise<TestServer> {
  const httpServer = http.createServer();
  const io = new Server<ClientToServerEvents, ServerToClientEvents>(httpServer, { path: '/socket.io' });
  const handshakes: unknown[] = [];
  const subscriptions: string[] = [];
  io.use((socket, next) => {
    handshakes.push(socket.handshake.auth);
    next((socket.handshake.auth as { token?: unknown }).token === GOOD ? undefined : new Error('unauthorized'));
  });
  io.on('connection', (socket) => {
    const accountId = (socket.handshake.auth as { accountId?: string | null }).accountId ?? null;
    const rooms = accountId === null ? [] : [`account:${accountId}`];
    void socket.join(rooms);
    socket.emit('ready', { accountId, userId: 'u1', rooms });
    socket.on('subscribe', ({ accountId: next }, ack) => {
      subscriptions.push(next);
      ack(next === 'forbidden' ? { ok: false, error: 'not a member of that account' } : { ok: true });
    });
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const { port } = httpServer.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${String(port)}`,
    io,
    handshakes,
    subscriptions,
    close: () =>
      new Promise<void>((resolve) => {
        void io.close(() => {
          resolve();
        });
      }),
  };
}

const event = (type: string): OutboxEventPayload => ({
  id: '1',
  type,
  accountId: 'acc-1',
  userId: null,
  groupId: null,
  data: {},
  createdAt: new Date().toISOString(),
});

let server: TestServer | null = null;
let connection: RealtimeConnection | null = null;

afterEach(async () => {
  connection?.close();
  connection = null;
  await server?.close();
  server = null;
});

function connect(target: TestServer, auth: { token: string | null; accountId: string | null }) {
  const readies: { reconnected: boolean; accountId: string | null }[] = [];
  const events: OutboxEventPayload[] = [];
  const statuses: RealtimeStatus[] = [];
  const log: RealtimeLog = { info: vi.fn(), warn: vi.fn() };
  connection = createRealtimeConnection({
    url: target.url,
    path: '/socket.io',
    auth: () => auth,
    onEvent: (e) => events.push(e),
    onReady: ({ reconnected, accountId }) => readies.push({ reconnected, accountId }),
    onStatus: (s) => statuses.push(s),
    log,
    delayMs: 50,
    maxDelayMs: 200,
  });
  return { readies, events, statuses, log, connection };
}

describe('createRealtimeConnection', () => {
  it('authenticates with the token, joins the account, and hands over its events', async () => {
    server = await startServer();
    const client = connect(server, { token: GOOD, accountId: 'acc-1' });
    await vi.waitFor(() => {
      expect(client.readies).toEqual([{ reconnected: false, accountId: 'acc-1' }]);
    });
    expect(server.handshakes).toEqual([{ token: GOOD, accountId: 'acc-1' }]);
    server.io.to('account:acc-1').emit('event', event('messageReceived'));
    await vi.waitFor(() => {
      expect(client.events.map((e) => e.type)).toEqual(['messageReceived']);
    });
    expect(client.statuses.at(-1)).toBe('connected');
  });

  it('hands over the events of a frame of several one by one, in order', async () => {
    server = await startServer();
    const client = connect(server, { token: GOOD, accountId: 'acc-1' });
    await vi.waitFor(() => {
      expect(client.readies).toHaveLength(1);
    });
    const statuses = ['queued', 'sent', 'delivered'].map((status, i) => ({ ...event('messageStatus'), id: `7.${String(i)}`, data: { status } }));
    server.io.to('account:acc-1').emit('events', statuses);
    server.io.to('account:acc-1').emit('event', event('messageReceived'));
    await vi.waitFor(() => {
      expect(client.events.map((e) => e.id)).toEqual(['7.0', '7.1', '7.2', '1']);
    });
    expect(client.events.slice(0, 3).map((e) => (e.data as { status: string }).status)).toEqual(['queued', 'sent', 'delivered']);
  });

  it('comes back after the server drops it, says it reconnected, and asks for the account chosen meanwhile', async () => {
    server = await startServer();
    const auth = { token: GOOD, accountId: 'acc-1' as string | null };
    const client = connect(server, auth);
    await vi.waitFor(() => {
      expect(client.readies).toHaveLength(1);
    });
    auth.accountId = 'acc-2';
    server.io.disconnectSockets(true);
    await vi.waitFor(() => {
      expect(client.readies).toEqual([
        { reconnected: false, accountId: 'acc-1' },
        { reconnected: true, accountId: 'acc-2' },
      ]);
    });
  });

  it('reconnects after the network drops and counts it as a reconnection', async () => {
    server = await startServer();
    const client = connect(server, { token: GOOD, accountId: 'acc-1' });
    await vi.waitFor(() => {
      expect(client.readies).toHaveLength(1);
    });
    for (const socket of await server.io.fetchSockets()) {
      // Closing the transport looks like a lost network to the client.
      server.io.sockets.sockets.get(socket.id)?.conn.close();
    }
    await vi.waitFor(() => {
      expect(client.readies.map((r) => r.reconnected)).toEqual([false, true]);
    });
  });

  it('only logs a refused token, and tries again when asked with a new one', async () => {
    server = await startServer();
    const auth = { token: 'expired' as string | null, accountId: 'acc-1' };
    const client = connect(server, auth);
    await vi.waitFor(() => {
      expect(client.log.info).toHaveBeenCalledWith('websocket unauthorized');
    });
    expect(client.statuses.at(-1)).toBe('disconnected');
    expect(client.readies).toEqual([]);
    auth.token = GOOD;
    client.connection.retry();
    await vi.waitFor(() => {
      expect(client.readies).toEqual([{ reconnected: false, accountId: 'acc-1' }]);
    });
  });

  it('moves to another account on subscribe, and logs a refusal', async () => {
    server = await startServer();
    const client = connect(server, { token: GOOD, accountId: 'acc-1' });
    await vi.waitFor(() => {
      expect(client.readies).toHaveLength(1);
    });
    client.connection.subscribe('acc-3');
    client.connection.subscribe('forbidden');
    const target = server;
    await vi.waitFor(() => {
      expect(target.subscriptions).toEqual(['acc-3', 'forbidden']);
    });
    await vi.waitFor(() => {
      expect(client.log.warn).toHaveBeenCalledWith('websocket subscribe refused', 'not a member of that account');
    });
  });

  it('does not connect without a token', async () => {
    server = await startServer();
    const client = connect(server, { token: null, accountId: 'acc-1' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.handshakes).toEqual([]);
    expect(client.statuses).toEqual(['disconnected']);
  });
});
