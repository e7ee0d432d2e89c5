import { io as connect, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, OutboxEventPayload, ServerToClientEvents } from '@parley/shared';

export type TestSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

export interface ConnectedClient {
  socket: TestSocket;
  rooms: string[];
  received: OutboxEventPayload[];
  /** How many events each frame carried, in order: 1 for an `event`, the batch's length for an `events`. */
  frames: number[];
}

/** A websocket client as the web app connects; resolves when the server says it joined its rooms. */
export function connectClient(baseUrl: string, auth: Record<string, string>): Promise<ConnectedClient> {
  const socket: TestSocket = connect(baseUrl, {
    path: '/socket.io',
    auth,
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  const received: OutboxEventPayload[] = [];
  const frames: number[] = [];
  socket.on('event', (event) => {
    received.push(event);
    frames.push(1);
  });
  socket.on('events', (events) => {
    received.push(...events);
    frames.push(events.length);
  });
  return new Promise((resolve, reject) => {
    socket.once('ready', ({ rooms }) => {
      resolve({ socket, rooms, received, frames });
    });
    socket.once('connect_error', (error) => {
      socket.close();
      reject(error);
    });
  });
}
