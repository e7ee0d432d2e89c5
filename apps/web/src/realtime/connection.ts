import type { ClientToServerEvents, OutboxEventPayload, ServerToClientEvents } from '@parley/shared';
import { io, type Socket } from 'socket.io-client';

export type RealtimeStatus = 'connecting' | 'connected' | 'disconnected';

export interface RealtimeLog {
  info: (message: string, detail?: unknown) => void;
  warn: (message: string, detail?: unknown) => void;
}

export interface RealtimeConnectionOptions {
  /** The server's address; the page's own origin when left out (the API and the app share it). */
  url?: string;
  /** The socket.io path of the server (client config `realtime.path`). */
  path: string;
  /** Read at every (re)connection, so a renewed token and the account chosen last are the ones sent. */
  auth: () => { token: string | null; accountId: string | null };
  onEvent: (event: OutboxEventPayload) => void;
  /**
   * The socket joined its rooms. `reconnected` is false the first time: afterwards events may have been missed
   * while it was away. `at` is when it joined.
   */
  onReady: (info: { reconnected: boolean; accountId: string | null; at: number }) => void;
  onStatus?: (status: RealtimeStatus) => void;
  log?: RealtimeLog;
  /** Reconnection backoff: the first wait, and the longest. */
  delayMs?: number;
  maxDelayMs?: number;
}

export interface RealtimeConnection {
  /** Moves the socket to another account's rooms (and reconnections ask for it). */
  subscribe: (accountId: string | null) => void;
  /** Tries again after the server refused the token, once a new one is at hand. */
  retry: () => void;
  close: () => void;
}

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** What the server answers a refused handshake with (apps/server/src/modules/realtime/realtimeServer.ts). */
export const UNAUTHORIZED = 'unauthorized';

/**
 * One socket.io connection for the signed-in session (authenticates with a token, subscribes with
 * accountId, receives message events). socket.io reconnects after network losses with a growing, jittered
 * delay; a disconnect the server decided, which socket.io leaves alone, is retried the same way here. A refused
 * token is only logged and tried again when the token changes.
 */
export function createRealtimeConnection(options: RealtimeConnectionOptions): RealtimeConnection {
  const log = options.log ?? console;
  const delayMs = options.delayMs ?? 1000;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  let readyCount = 0;
  let closed = false;
  let refused = false;
  let serverDisconnects = 0;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;

  const socketOptions = {
    path: options.path,
    auth: (cb: (data: object) => void) => {
      cb(options.auth());
    },
    reconnectionDelay: delayMs,
    reconnectionDelayMax: maxDelayMs,
    randomizationFactor: 0.5,
    // Signing in happens first: a session without a token has nothing to connect with.
    autoConnect: false,
  };
  const socket: ClientSocket = options.url === undefined ? io(socketOptions) : io(options.url, socketOptions);

  const status = (next: RealtimeStatus): void => {
    options.onStatus?.(next);
  };
  const connect = (): void => {
    if (closed || socket.connected) return;
    if (options.auth().token === null) {
      status('disconnected');
      return;
    }
    status('connecting');
    socket.connect();
  };

  socket.on('ready', ({ accountId }) => {
    serverDisconnects = 0;
    refused = false;
    status('connected');
    options.onReady({ reconnected: readyCount > 0, accountId, at: Date.now() });
    readyCount += 1;
  });
  socket.on('event', (event) => {
    options.onEvent(event);
  });
  socket.on('events', (events) => {
    for (const event of events) options.onEvent(event);
  });
  socket.on('connect_error', (error) => {
    if (socket.active) {
      status('connecting');
      return;
    }
    // The server refused the handshake (middleware): socket.io does not try again on its own.
    refused = true;
    status('disconnected');
    if (error.message === UNAUTHORIZED) log.info('websocket unauthorized');
    else log.warn('websocket refused', error.message);
  });
  socket.on('disconnect', (reason) => {
    if (closed) return;
    status(socket.active ? 'connecting' : 'disconnected');
    if (reason !== 'io server disconnect') return;
    // The server dropped the socket (a failed join, a restart): come back after a growing, jittered wait.
    const wait = Math.min(maxDelayMs, delayMs * 2 ** serverDisconnects) * (0.5 + Math.random() / 2);
    serverDisconnects += 1;
    retryTimer = setTimeout(connect, wait);
  });

  connect();

  return {
    subscribe: (accountId) => {
      if (accountId === null || !socket.connected) return;
      socket.emit('subscribe', { accountId }, (answer) => {
        if (!answer.ok) log.warn('websocket subscribe refused', answer.error);
      });
    },
    retry: () => {
      if (refused || !socket.active) connect();
    },
    close: () => {
      closed = true;
      if (retryTimer !== null) clearTimeout(retryTimer);
      socket.removeAllListeners();
      socket.disconnect();
    },
  };
}
