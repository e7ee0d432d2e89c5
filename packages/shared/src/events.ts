/**
 * The typed map of websocket events, shared by the server (emit) and the web app (listen).
 * Domain capabilities add their events here; the outbox dispatcher forwards any event whose
 * type is a key of this map to the rooms of its account and user.
 */
export interface ServerToClientEvents {
  /** Sent to a socket right after it joined its rooms. */
  ready: (payload: { accountId: string | null; userId: string | null; rooms: string[] }) => void;
  /** A domain event from the outbox, as the dispatcher forwards it. */
  event: (payload: OutboxEventPayload) => void;
}

export interface ClientToServerEvents {
  /** Asks the server to (re)join the rooms of an account the socket's principal belongs to. */
  subscribe: (payload: { accountId: string }, ack: (answer: { ok: boolean; error?: string }) => void) => void;
}

export interface OutboxEventPayload {
  /** Monotonic per deployment; a client that reconnects can ask for what came after. */
  id: string;
  type: string;
  accountId: string | null;
  userId: string | null;
  data: unknown;
  createdAt: string;
}

export const accountRoom = (accountId: string): string => `account:${accountId}`;
export const userRoom = (userId: string): string => `user:${userId}`;
