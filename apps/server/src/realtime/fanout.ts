import { asc, inArray } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database, Unlisten } from '../db/client.js';
import { events } from '../db/schema/index.js';
import { toPayload } from '../events/dispatcher.js';
import { OUTBOX_CHANNEL, parseOutboxPayload } from '../events/outbox.js';
import { eventRooms, type RealtimeServer } from './server.js';

/** Events read back per query; a campaign's batch of status events is a few of these. */
const READ_CHUNK = 1000;

/**
 * Outbox events to websockets, in every web process. The transaction that writes events names their ids in
 * its NOTIFY on the outbox channel (events/outbox.ts), delivered when it commits; each web process reads
 * those events in one query and emits them to its own sockets. No other process stands between a commit and
 * the sockets, so an incoming message reaches the inbox without waiting for the outbox dispatcher's round,
 * and a busy worker does not delay it.
 *
 * Notifications are handled one after the other, in the order they came, so each process emits in commit
 * order. A process whose notification connection drops cannot tell what it missed: it disconnects its
 * websocket clients, which reconnect and fetch what they missed (as after any reconnect).
 */
export class RealtimeFanout {
  private unlisten: Unlisten | null = null;
  private connected = false;
  /** Notifications are emitted one after the other, in the order they came. */
  private received: Promise<void> = Promise.resolve();

  constructor(
    private readonly io: RealtimeServer,
    private readonly database: Database,
    private readonly log: Logger,
  ) {}

  async listen(): Promise<void> {
    if (this.unlisten !== null) return;
    this.unlisten = await this.database.listen(OUTBOX_CHANNEL, (payload) => {
      const ids = parseOutboxPayload(payload);
      if (ids.length > 0) {
        this.received = this.received.then(() => this.emitStored(ids)).catch((error: unknown) => {
          this.log.error({ err: error }, 'new events could not be read; their clients catch up when they reconnect');
        });
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
    await this.received;
  }

  private async emitStored(ids: readonly number[]): Promise<void> {
    for (let i = 0; i < ids.length; i += READ_CHUNK) {
      const chunk = ids.slice(i, i + READ_CHUNK);
      const rows = await this.database.db.select().from(events).where(inArray(events.id, chunk)).orderBy(asc(events.id));
      for (const row of rows) {
        const event = toPayload(row);
        const rooms = eventRooms(event);
        // This process's sockets only: every web process hears the same notification.
        if (rooms.length > 0) this.io.local.to(rooms).emit('event', event);
      }
    }
  }
}
