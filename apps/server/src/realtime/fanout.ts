import { randomUUID } from 'node:crypto';
import { asc, inArray } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { OutboxEventPayload } from '@parley/shared';
import type { Database, Unlisten } from '../db/client.js';
import { events } from '../db/schema/index.js';
import { toPayload, type EventSubscriber } from '../events/dispatcher.js';
import { eventRooms, type RealtimeServer } from './server.js';

/** Web processes hear here which outbox events another process has just dispatched. */
export const REALTIME_CHANNEL = 'parley_realtime';

/** NOTIFY carries at most 8000 bytes; event ids are listed in payloads below this. */
const NOTIFY_PAYLOAD_BYTES = 7000;

interface Announcement {
  /** The process that dispatched them (it has emitted them to its own sockets already). */
  origin: string;
  ids: string[];
}

/**
 * Outbox events to websockets. The process running the outbox dispatcher emits each event to its own
 * sockets; on PostgreSQL, where web processes may run apart from it, it then announces the ids of a round in
 * one NOTIFY (a few per round at most), and every other web process reads those events back in one query
 * and emits them to its sockets. One notification a round instead of one per event keeps a campaign's tens
 * of thousands of status events from queueing up in NOTIFY ahead of an incoming message.
 */
export class RealtimeFanout implements EventSubscriber {
  readonly name = 'websocket';
  private readonly origin = randomUUID();
  private announced: string[] = [];
  private unlisten: Unlisten | null = null;
  /** Announcements from other processes are emitted one after the other, in the order they came. */
  private received: Promise<void> = Promise.resolve();

  constructor(
    private readonly io: RealtimeServer,
    private readonly database: Database,
    private readonly log: Logger,
  ) {}

  deliver(event: OutboxEventPayload): Promise<void> {
    this.emit(event);
    if (this.database.kind === 'postgres') this.announced.push(event.id);
    return Promise.resolve();
  }

  /** After each dispatcher round: tells the other web processes which events went out. */
  async flush(): Promise<void> {
    const ids = this.announced;
    this.announced = [];
    if (ids.length === 0 || this.database.kind !== 'postgres') return;
    for (const payload of announcementPayloads(this.origin, ids)) {
      await this.database.pool.query('select pg_notify($1, $2)', [REALTIME_CHANNEL, payload]);
    }
  }

  /** In a web process on PostgreSQL: emits what other processes dispatch. */
  async listen(): Promise<void> {
    if (this.database.kind !== 'postgres' || this.unlisten !== null) return;
    this.unlisten = await this.database.listen(REALTIME_CHANNEL, (payload) => {
      const announcement = parseAnnouncement(payload);
      if (announcement === null || announcement.origin === this.origin) return;
      this.received = this.received.then(() => this.emitStored(announcement.ids)).catch((error: unknown) => {
        this.log.error({ err: error }, 'announced events could not be read; clients catch up when they reconnect');
      });
    });
  }

  async stop(): Promise<void> {
    await this.unlisten?.();
    this.unlisten = null;
    await this.received;
  }

  private emit(event: OutboxEventPayload): void {
    const rooms = eventRooms(event);
    // Local: this process's sockets only. Other web processes hear of it through the announcement.
    if (rooms.length > 0) this.io.local.to(rooms).emit('event', event);
  }

  private async emitStored(ids: string[]): Promise<void> {
    const numeric = ids.map(Number).filter((id) => Number.isSafeInteger(id));
    if (numeric.length === 0) return;
    const rows = await this.database.db.select().from(events).where(inArray(events.id, numeric)).orderBy(asc(events.id));
    for (const row of rows) this.emit(toPayload(row));
  }
}

/** The ids as few NOTIFY payloads as fit, each under the limit. */
export function announcementPayloads(origin: string, ids: readonly string[]): string[] {
  const payloads: string[] = [];
  const encode = (list: string[]): string => JSON.stringify({ origin, ids: list } satisfies Announcement);
  const empty = encode([]).length;
  let batch: string[] = [];
  let length = empty;
  for (const id of ids) {
    // Each id adds its quotes and a comma; ids are digits, so nothing is escaped.
    const more = JSON.stringify(id).length + 1;
    if (batch.length > 0 && length + more > NOTIFY_PAYLOAD_BYTES) {
      payloads.push(encode(batch));
      batch = [];
      length = empty;
    }
    batch.push(id);
    length += more;
  }
  if (batch.length > 0) payloads.push(encode(batch));
  return payloads;
}

function parseAnnouncement(payload: string): Announcement | null {
  try {
    const value = JSON.parse(payload) as Partial<Announcement>;
    if (typeof value.origin !== 'string' || !Array.isArray(value.ids)) return null;
    return { origin: value.origin, ids: value.ids.filter((id): id is string => typeof id === 'string') };
  } catch {
    return null;
  }
}
