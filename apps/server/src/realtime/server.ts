import type http from 'node:http';
import { Server, type Socket } from 'socket.io';
import { createAdapter } from '@socket.io/postgres-adapter';
import type { Logger } from 'pino';
import {
  accountRoom,
  userRoom,
  type ClientToServerEvents,
  type OutboxEventPayload,
  type ServerToClientEvents,
} from '@parley/shared';
import type { Database } from '../db/client.js';
import type { Authenticator, Principal } from '../identity/authenticator.js';
import { roleInAccount } from '../identity/memberships.js';
import { bearerToken } from '../identity/authenticator.js';
import type { EventSubscriber } from '../events/dispatcher.js';

export const REALTIME_PATH = '/socket.io';

interface SocketData {
  principal: Principal;
}

export type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
type RealtimeSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

/**
 * The socket.io server. With an http server it accepts clients; without one (a worker process) it
 * only emits, and on PostgreSQL the adapter carries those emits to the clients of every web process.
 */
export function createRealtimeServer(options: {
  database: Database;
  authenticator: Authenticator;
  log: Logger;
  httpServer?: http.Server;
}): RealtimeServer {
  const io: RealtimeServer = new Server({
    path: REALTIME_PATH,
    serveClient: false,
    cors: { origin: false },
  });
  if (options.database.kind === 'postgres') {
    io.adapter(createAdapter(options.database.pool, { tableName: 'socket_io_attachments' }));
  }

  io.use((socket, next) => {
    const auth = socket.handshake.auth as Record<string, unknown>;
    const token =
      typeof auth.token === 'string' ? auth.token : bearerToken(socket.handshake.headers.authorization);
    if (token === null) {
      next(new Error('unauthorized'));
      return;
    }
    options.authenticator
      .authenticate(token)
      .then((principal) => {
        if (principal === null) {
          next(new Error('unauthorized'));
          return;
        }
        socket.data.principal = principal;
        next();
      })
      .catch((error: unknown) => {
        options.log.error({ err: error }, 'websocket authentication failed');
        next(new Error('unauthorized'));
      });
  });

  // An account the token names (API clients, the development sign-in) or one the user is a member of.
  const mayJoin = async (principal: Principal, accountId: string): Promise<boolean> =>
    principal.accountIds.includes(accountId) ||
    (await roleInAccount(options.database.db, principal, accountId)) !== null;

  io.on('connection', (socket: RealtimeSocket) => {
    const { principal } = socket.data;
    const requested = (socket.handshake.auth as Record<string, unknown>).accountId;
    const connect = async (): Promise<void> => {
      const accountId =
        typeof requested === 'string' && (await mayJoin(principal, requested))
          ? requested
          : principal.accountIds.length === 1
            ? (principal.accountIds[0] ?? null)
            : null;
      const rooms = [userRoom(principal.userId), ...(accountId === null ? [] : [accountRoom(accountId)])];
      await socket.join(rooms);
      socket.emit('ready', { accountId, userId: principal.userId, rooms });
    };
    connect().catch((error: unknown) => {
      options.log.error({ err: error }, 'websocket join failed');
      socket.disconnect(true);
    });

    socket.on('subscribe', (payload, ack) => {
      const target = payload.accountId;
      mayJoin(principal, target)
        .then(async (allowed) => {
          if (!allowed) {
            ack({ ok: false, error: 'not a member of that account' });
            return;
          }
          for (const room of socket.rooms) {
            if (room.startsWith('account:') && room !== accountRoom(target)) await socket.leave(room);
          }
          await socket.join(accountRoom(target));
          ack({ ok: true });
        })
        .catch((error: unknown) => {
          options.log.error({ err: error }, 'websocket subscribe failed');
          ack({ ok: false, error: 'unavailable' });
        });
    });
  });

  if (options.httpServer) io.attach(options.httpServer);
  return io;
}

/** Forwards outbox events to the rooms of their account and user. */
export function realtimeSubscriber(io: RealtimeServer): EventSubscriber {
  return {
    name: 'websocket',
    deliver(event: OutboxEventPayload) {
      const rooms: string[] = [];
      if (event.accountId !== null) rooms.push(accountRoom(event.accountId));
      if (event.userId !== null) rooms.push(userRoom(event.userId));
      if (rooms.length > 0) io.to(rooms).emit('event', event);
      return Promise.resolve();
    },
  };
}

/** Closes the server; a detached one (worker role) has no engine, only its adapter to close. */
export async function closeRealtimeServer(io: RealtimeServer, attached: boolean): Promise<void> {
  if (attached) {
    await io.close();
    return;
  }
  await io.of('/').adapter.close();
}
