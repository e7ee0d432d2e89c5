/**
 * The typed map of websocket events, shared by the server (emit) and the web app (listen).
 * The outbox dispatcher forwards every event as `event` to the rooms of its account (or of its
 * conversation's group, see OutboxEventPayload.groupId) and of its user.
 */
export interface ServerToClientEvents {
  /** Sent to a socket right after it joined its rooms. */
  ready: (payload: { accountId: string | null; userId: string | null; rooms: string[] }) => void;
  /** A domain event from the outbox, as the dispatcher forwards it. */
  event: (payload: OutboxEventPayload) => void;
  /**
   * Several events of the bulk lane (a campaign's statuses) in one frame, in order: a client handles each as
   * if it had come as `event`. Tens of thousands of frames a campaign cost the server a write each and the
   * client a message each.
   */
  events: (payload: OutboxEventPayload[]) => void;
}

export interface ClientToServerEvents {
  /**
   * Asks the server to (re)join the rooms of an account the socket's principal belongs to, worked out
   * again from the database: a changed role or group membership takes effect here (or on reconnecting).
   * The answer names the rooms joined.
   */
  subscribe: (payload: { accountId: string }, ack: (answer: { ok: boolean; error?: string; rooms?: string[] }) => void) => void;
}

export interface OutboxEventPayload {
  /**
   * Unique per deployment: the outbox row's id, or `{row id}.{position}` for one of the events a row holds
   * (a campaign batch's). A client that reconnects fetches what it shows again rather than replaying events.
   */
  id: string;
  type: string;
  accountId: string | null;
  userId: string | null;
  /**
   * The group of the conversation the event is about, when it has one. Such an event goes only to that
   * group's users and to the account's administrators and API clients (rooms groupRoom and accountAllRoom);
   * an event without a group goes to everyone in the account (accountRoom).
   */
  groupId: string | null;
  data: unknown;
  createdAt: string;
}

export const accountRoom = (accountId: string): string => `account:${accountId}`;
export const userRoom = (userId: string): string => `user:${userId}`;
/** Joined by the account's members who are users of the group. */
export const groupRoom = (groupId: string): string => `group:${groupId}`;
/** Joined by the account's administrators and API clients: they see every group's conversations. */
export const accountAllRoom = (accountId: string): string => `account:${accountId}:all`;

/**
 * What a user may see in an account changed (a group's users, their role, their membership). It goes to that
 * user only (accountId null, so not to the whole account); before emitting it, each web process moves the
 * user's sockets in that account to the rooms they may now join, and the client fetches its inbox again.
 */
export const ACCESS_CHANGED_EVENT = 'accessChanged';
export interface AccessChangedData {
  accountId: string;
}
