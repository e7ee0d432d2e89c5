import type http from 'node:http';
import { Server, type Socket } from 'socket.io';
import { createAdapter } from '@socket.io/postgres-adapter';
import type { Logger } from 'pino';
import {
  accountAllRoom,
  accountRoom,
  groupRoom,
  userRoom,
  type ClientToServerEvents,
  type OutboxEventPayload,
  type ServerToClientEvents,
} from '@parley/shared';
import type { Database } from '../../platform/db/client.js';
import type { Authenticator, Principal } from '../identity/index.js';
import { roleInAccount } from '../identity/index.js';
import { bearerToken } from '../identity/index.js';
import { seesEveryGroup, viewerGroupIds } from '../messaging/index.js';

export const REALTIME_PATH = '/socket.io';

/**
 * The rooms of an account for the principal, or null when it may not join: an account the token names
 * (API clients, the development sign-in) or one the user is a member of. Everyone joins the account's room
 * (events about no group); administrators and API clients also its `:all` room (every group's events),
 * other users the rooms of their groups in it (conversationVisibility.ts decides who sees what).
 */
async function accountRoomsOf(database: Database, principal: Principal, accountId: string): Promise<string[] | null> {
  const role = await roleInAccount(database.db, principal, accountId);
  if (role === null && !principal.accountIds.includes(accountId)) return null;
  const viewer = { role: role ?? 'ReadOnly', userId: principal.userId, clientId: principal.clientId };
  if (seesEveryGroup(viewer)) return [accountRoom(accountId), accountAllRoom(accountId)];
  const groups = await viewerGroupIds(database.db, accountId, principal.userId);
  return [accountRoom(accountId), ...groups.map(groupRoom)];
}

const isAccountScoped = (room: string): boolean => room.startsWith('account:') || room.startsWith('group:');

/** What moveToRooms needs of a socket: a local one, or one fetchSockets found. */
interface RoomMember {
  readonly rooms: ReadonlySet<string>;
  join(rooms: string[]): unknown;
  leave(room: string): unknown;
}

/** Leaves the account-scoped rooms not in `rooms` and joins `rooms`. */
async function moveToRooms(socket: RoomMember, rooms: readonly string[]): Promise<void> {
  for (const room of [...socket.rooms]) {
    if (isAccountScoped(room) && !rooms.includes(room)) await socket.leave(room);
  }
  await socket.join([...rooms]);
}

/**
 * After an accessChanged event: this process's sockets of the user that are in the account's rooms move to
 * the rooms the user may join now, or leave them all when the user may no longer see the account.
 */
export async function refreshUserRooms(io: RealtimeServer, database: Database, userId: string, accountId: string): Promise<void> {
  const sockets = await io.local.in(userRoom(userId)).fetchSockets();
  for (const socket of sockets) {
    if (!socket.rooms.has(accountRoom(accountId))) continue;
    const rooms = await accountRoomsOf(database, socket.data.principal, accountId);
    await moveToRooms(socket, rooms ?? []);
  }
}

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

  const accountRooms = (principal: Principal, accountId: string): Promise<string[] | null> =>
    accountRoomsOf(options.database, principal, accountId);

  io.on('connection', (socket: RealtimeSocket) => {
    const { principal } = socket.data;
    const requested = (socket.handshake.auth as Record<string, unknown>).accountId;
    const connect = async (): Promise<void> => {
      // The account asked for when the principal may join it, else the token's only account, else none.
      const candidates = [
        ...(typeof requested === 'string' ? [requested] : []),
        ...(principal.accountIds.length === 1 ? principal.accountIds : []),
      ];
      let accountId: string | null = null;
      let scoped: string[] = [];
      for (const candidate of candidates) {
        const joinable = await accountRooms(principal, candidate);
        if (joinable === null) continue;
        accountId = candidate;
        scoped = joinable;
        break;
      }
      const rooms = [userRoom(principal.userId), ...scoped];
      await socket.join(rooms);
      socket.emit('ready', { accountId, userId: principal.userId, rooms });
    };
    connect().catch((error: unknown) => {
      options.log.error({ err: error }, 'websocket join failed');
      socket.disconnect(true);
    });

    // Also how a changed role or group membership takes effect without reconnecting.
    socket.on('subscribe', (payload, ack) => {
      const target = payload.accountId;
      accountRooms(principal, target)
        .then(async (rooms) => {
          if (rooms === null) {
            ack({ ok: false, error: 'not a member of that account' });
            return;
          }
          await moveToRooms(socket, rooms);
          ack({ ok: true, rooms: [userRoom(principal.userId), ...rooms] });
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

/**
 * The rooms an event goes to: an event about a conversation of a group to that group's users and the
 * account's administrators and API clients; any other event of an account to all its members; a user's
 * event to that user.
 */
export function eventRooms(event: Pick<OutboxEventPayload, 'accountId' | 'userId' | 'groupId'>): string[] {
  const rooms: string[] = [];
  if (event.groupId !== null) {
    rooms.push(groupRoom(event.groupId));
    if (event.accountId !== null) rooms.push(accountAllRoom(event.accountId));
  } else if (event.accountId !== null) {
    rooms.push(accountRoom(event.accountId));
  }
  if (event.userId !== null) rooms.push(userRoom(event.userId));
  return rooms;
}

/** Closes the server; a detached one (worker role) has no engine, only its adapter to close. */
export async function closeRealtimeServer(io: RealtimeServer, attached: boolean): Promise<void> {
  if (attached) {
    await io.close();
    return;
  }
  await io.of('/').adapter.close();
}
