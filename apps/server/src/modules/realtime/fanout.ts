import { setImmediate as nextTurn } from 'node:timers/promises';
import { asc, inArray } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database, Unlisten } from '../../platform/db/client.js';
import { events, type EventRow } from '../../platform/db/schema/index.js';
import { eventCountOf, expandEventRows } from '../messaging/index.js';
import { OUTBOX_CHANNEL, OUTBOX_LANES, parseOutboxPayload, type OutboxLane } from '../../platform/events/outbox.js';
import { ACCESS_CHANGED_EVENT, type OutboxEventPayload } from '@parley/shared';
import { eventRooms, refreshUserRooms, type RealtimeServer } from './realtimeServer.js';

/** Events read back per query. */
const READ_CHUNK = 1000;

/**
 * Events emitted between two turns of the event loop: emitting a campaign's thousand status events at once
 * would hold up the requests (an incoming message's webhook) and the other lane for tens of milliseconds.
 * The bulk lane's slice goes out as one frame (`events`) to each set of rooms.
 */
const EMIT_SLICE = 50;

/** Events expanded (their messages read and presented) at a time. */
const EXPAND_SLICE = 250;

/** One lane's announced ids waiting to be read and emitted, and whether its drain runs. */
interface LaneQueue {
  ids: number[];
  draining: Promise<void> | null;
}

/**
 * Outbox events to websockets, in every web process. The transaction that writes events names their ids in
 * its NOTIFY on the outbox channel (platform/events/outbox.ts), delivered when it commits; each web process reads
 * those events and emits them to its own sockets. No other process stands between a commit and the
 * sockets, so an incoming message reaches the inbox without waiting for the outbox dispatcher's round, and a
 * busy worker does not delay it.
 *
 * Each lane has its own queue, drained in the order the ids came, a thousand events a query: a campaign's
 * status events (bulk) pile up and are read together while an incoming message (interactive) goes past
 * them. A process whose notification connection drops cannot tell what it missed: it disconnects its
 * websocket clients, which reconnect and fetch what they missed (as after any reconnect).
 */
export class RealtimeFanout {
  private unlisten: Unlisten | null = null;
  private connected = false;
  private readonly lanes = new Map<OutboxLane, LaneQueue>([
    [OUTBOX_LANES.interactive, { ids: [], draining: null }],
    [OUTBOX_LANES.bulk, { ids: [], draining: null }],
  ]);

  constructor(
    private readonly io: RealtimeServer,
    private readonly database: Database,
    private readonly log: Logger,
  ) {}

  async listen(): Promise<void> {
    if (this.unlisten !== null) return;
    this.unlisten = await this.database.listen(OUTBOX_CHANNEL, (payload) => {
      const announcement = parseOutboxPayload(payload);
      if (announcement !== null) {
        this.enqueue(announcement.lane, announcement.ids);
        return;
      }
      // An empty payload is the listener's own (re)connection.
      if (payload !== '') return;
      if (this.connected) {
        this.log.warn('the notification connection was re-established: websocket clients reconnect to catch up');
        this.io.local.disconnectSockets(true);
      }
      this.connected = true;
    });
    // PGlite's listener announces no connection of its own.
    this.connected = true;
  }

  async stop(): Promise<void> {
    await this.unlisten?.();
    this.unlisten = null;
    await Promise.all([...this.lanes.values()].map((queue) => queue.draining ?? Promise.resolve()));
  }

  private enqueue(lane: OutboxLane, ids: readonly number[]): void {
    const queue = this.lanes.get(lane);
    if (queue === undefined) return;
    queue.ids.push(...ids);
    queue.draining ??= this.drain(lane, queue).finally(() => {
      queue.draining = null;
    });
  }

  private async drain(lane: OutboxLane, queue: LaneQueue): Promise<void> {
    while (queue.ids.length > 0) {
      const chunk = queue.ids.splice(0, READ_CHUNK);
      try {
        await this.emitStored(lane, chunk);
      } catch (error) {
        this.log.error({ err: error }, 'new events could not be read; their clients catch up when they reconnect');
      }
    }
  }

  private async emitStored(lane: OutboxLane, ids: readonly number[]): Promise<void> {
    // No client connected to this process: nothing to emit, so nothing to read (a campaign's status events
    // would otherwise be read for nobody). A client that connects later fetches what it has not seen.
    if (this.io.engine.clientsCount === 0) return;
    const rows = await this.database.db.select().from(events).where(inArray(events.id, [...ids])).orderBy(asc(events.id));
    // A row may hold up to ROW_EVENTS_MAX events, or name as many messages (modules/messaging/eventPayloads.ts): they
    // are expanded a few hundred at a time, so no one turn of the event loop presents a campaign's batch.
    let slice: EventRow[] = [];
    let count = 0;
    for (const row of rows) {
      slice.push(row);
      count += eventCountOf(row);
      if (count >= EXPAND_SLICE) {
        await this.emitRows(lane, slice);
        slice = [];
        count = 0;
      }
    }
    if (slice.length > 0) await this.emitRows(lane, slice);
  }

  private async emitRows(lane: OutboxLane, rows: readonly EventRow[]): Promise<void> {
    const payloads = await expandEventRows(this.database.db, rows);
    if (lane === OUTBOX_LANES.bulk) await this.emitFrames(payloads);
    else await this.emitEach(payloads);
    await nextTurn();
  }

  /** The interactive lane's events, a frame each. This process's sockets only: every web process hears the same notification. */
  private async emitEach(payloads: readonly OutboxEventPayload[]): Promise<void> {
    for (const [index, event] of payloads.entries()) {
      if (index > 0 && index % EMIT_SLICE === 0) await nextTurn();
      if (event.type === ACCESS_CHANGED_EVENT) await this.refreshRooms(event);
      const rooms = eventRooms(event);
      if (rooms.length > 0) this.io.local.to(rooms).emit('event', event);
    }
  }

  /**
   * The bulk lane's events, in order, a frame (`events`) for each run of events going to the same rooms, at
   * most a slice long: a campaign's thousand statuses are twenty frames, not a thousand.
   */
  private async emitFrames(payloads: readonly OutboxEventPayload[]): Promise<void> {
    let frame: OutboxEventPayload[] = [];
    let rooms: string[] = [];
    let roomsKey = '';
    const send = (): void => {
      if (frame.length > 0 && rooms.length > 0) this.io.local.to(rooms).emit('events', frame);
      frame = [];
    };
    for (const [index, event] of payloads.entries()) {
      if (index > 0 && index % EMIT_SLICE === 0) {
        send();
        await nextTurn();
      }
      if (event.type === ACCESS_CHANGED_EVENT) {
        send();
        await this.refreshRooms(event);
      }
      const next = eventRooms(event);
      const nextKey = next.join(' ');
      if (nextKey !== roomsKey) {
        send();
        rooms = next;
        roomsKey = nextKey;
      }
      frame.push(event);
    }
    send();
  }

  /** Moves the user's sockets to the rooms they may join now, before they hear that access changed. */
  private async refreshRooms(event: OutboxEventPayload): Promise<void> {
    const data = event.data as { accountId?: unknown } | null;
    if (event.userId === null || typeof data?.accountId !== 'string') return;
    try {
      await refreshUserRooms(this.io, this.database, event.userId, data.accountId);
    } catch (error) {
      // The client still hears the event and fetches again; a reconnect re-evaluates its rooms.
      this.log.error({ err: error, userId: event.userId }, 'could not move a socket to its new rooms');
    }
  }
}
