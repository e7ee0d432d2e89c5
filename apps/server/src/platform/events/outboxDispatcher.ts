import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { OutboxEventPayload } from '@parley/shared';
import type { Database, Queryable, Tx } from '../db/client.js';
import { NotifiedLoop } from '../db/notifiedLoop.js';
import { queryRows } from '../db/client.js';
import { events, type EventRow } from '../db/schema/index.js';
import { toPayload } from './outboxPayload.js';
import { OUTBOX_CHANNEL, OUTBOX_LANES, type OutboxLane } from './outbox.js';

export interface EventSubscriber {
  readonly name: string;
  /**
   * The event types it delivers: those of OUTBOX_DELIVERED_TYPES are pending for every account, any other
   * only for accounts that subscribed to it (event_subscriptions, platform/events/outbox.ts).
   */
  readonly types: readonly string[];
  /**
   * Takes one event, in the round's transaction. Throwing leaves the event (and later events of its account)
   * pending for the next round.
   */
  deliver(event: OutboxEventPayload, tx: Tx): Promise<void>;
  /** Called at the end of each round, in its transaction, before it commits: to write what deliver gathered. */
  beforeCommit?(tx: Tx): Promise<void>;
  /** Called after each round has committed, for work done once per round rather than per event. */
  flush?(): Promise<void>;
}

/**
 * The events outbox rows hold, in order, each with the id `{row id}` or `{row id}.{position}` (a row several
 * events share). The server gives modules/messaging's, which reads the messages a reference row names.
 */
export type ExpandEventRows = (q: Queryable, rows: readonly EventRow[]) => Promise<OutboxEventPayload[]>;

const oneEventPerRow: ExpandEventRows = (_q, rows) => Promise.resolve(rows.map(toPayload));

/** The outbox row an expanded event came from. */
export const rowIdOf = (eventId: string): number => Number(eventId.split('.')[0]);

export interface DispatcherOptions {
  batchSize?: number;
  /** How often to look for pending events when no NOTIFY arrives (retries, missed wake-ups). */
  pollIntervalMs?: number;
  /** How rows become events; one event per row when left out. */
  expand?: ExpandEventRows;
}

// One dispatcher at a time per lane across all processes, so each lane's events leave in id order.
const DISPATCH_LOCK_KEY = 7_311_042_002;

/** Both lanes may hold pending events: an account may subscribe to a bulk type (messageStatus). */
const lanes: readonly OutboxLane[] = [OUTBOX_LANES.interactive, OUTBOX_LANES.bulk];

/**
 * Hands committed outbox events to subscribers, at least once and in order per account within a lane. Only
 * the types of OUTBOX_DELIVERED_TYPES are ever pending (platform/events/outbox.ts). Each lane that has such a type
 * (events.lane: interactive, or bulk for messageSent and messageStatus) has its own loop, so an incoming
 * message would be handed on while a campaign's status events were still queued. Each round runs in one transaction
 * under the lane's advisory lock: events are read in id order, delivered, and marked dispatched on commit. A
 * process that dies mid-round leaves them pending, so they go out again.
 */
export class OutboxDispatcher {
  private readonly batchSize: number;
  private readonly expand: ExpandEventRows;
  private readonly loops: NotifiedLoop[];

  constructor(
    private readonly database: Database,
    private readonly subscribers: readonly EventSubscriber[],
    private readonly log: Logger,
    options: DispatcherOptions = {},
  ) {
    this.expand = options.expand ?? oneEventPerRow;
    this.batchSize = options.batchSize ?? 500;
    this.loops = lanes.map(
      (lane) =>
        new NotifiedLoop({
          database,
          channel: OUTBOX_CHANNEL,
          pollIntervalMs: options.pollIntervalMs ?? 1000,
          log,
          failure: 'outbox dispatch round failed',
          round: () => this.dispatchLane(lane),
        }),
    );
  }

  async start(): Promise<void> {
    for (const loop of this.loops) await loop.start();
  }

  /** Finishes the rounds in progress, then stops. */
  async stop(): Promise<void> {
    await Promise.all(this.loops.map((loop) => loop.stop()));
  }

  wake(): void {
    for (const loop of this.loops) loop.wake();
  }

  /** One round of each lane. Returns true when a full batch went out and more may be waiting. */
  async dispatchOnce(): Promise<boolean> {
    let more = false;
    for (const lane of lanes) more = (await this.dispatchLane(lane)) || more;
    return more;
  }

  private async dispatchLane(lane: OutboxLane): Promise<boolean> {
    const more = await this.round(lane);
    for (const subscriber of this.subscribers) {
      await subscriber.flush?.().catch((error: unknown) => {
        this.log.error({ err: error, subscriber: subscriber.name }, 'subscriber flush failed');
      });
    }
    return more;
  }

  private async round(lane: OutboxLane): Promise<boolean> {
    return this.database.db.transaction(async (tx) => {
      const [lock] = await queryRows<{ locked: boolean }>(
        tx,
        sql`select pg_try_advisory_xact_lock(${DISPATCH_LOCK_KEY + lane}) as locked`,
      );
      if (lock?.locked !== true) return false;
      // A plain index scan walks events_pending_idx in id order and marks the entries of dispatched rows dead
      // as it passes them; the bitmap scan the planner prefers for a few pending rows revisits every one of
      // them (tens of thousands during a campaign) in each round until vacuum runs.
      await tx.execute(sql`set local enable_bitmapscan = off`);
      await tx.execute(sql`set local enable_sort = off`);
      const rows = await tx
        .select()
        .from(events)
        .where(and(eq(events.lane, lane), isNull(events.dispatchedAt)))
        .orderBy(asc(events.id))
        .limit(this.batchSize);
      if (rows.length === 0) return false;

      const { delivered, failed } = await this.deliverRows(tx, rows);
      for (const subscriber of this.subscribers) await subscriber.beforeCommit?.(tx);
      if (delivered.length > 0) {
        await tx
          .update(events)
          .set({ dispatchedAt: sql`now()`, attempts: sql`${events.attempts} + 1` })
          .where(inArray(events.id, delivered));
      }
      for (const [id, message] of failed) {
        await tx
          .update(events)
          .set({ attempts: sql`${events.attempts} + 1`, lastError: message })
          .where(and(inArray(events.id, [id]), isNull(events.dispatchedAt)));
      }
      return rows.length === this.batchSize && failed.size === 0;
    });
  }

  /**
   * Hands the rows' events on. A row is delivered when all of its events are; a row with an event that
   * failed is `failed`; a later row of that account is neither (it waits, so the account's order holds).
   */
  private async deliverRows(tx: Tx, rows: readonly EventRow[]): Promise<{ delivered: number[]; failed: Map<number, string> }> {
    const failed = new Map<number, string>();
    const waiting = new Set<number>();
    const blockedAccounts = new Set<string | null>();
    for (const event of await this.expand(tx, rows)) {
      const rowId = rowIdOf(event.id);
      if (blockedAccounts.has(event.accountId)) {
        if (!failed.has(rowId)) waiting.add(rowId);
        continue;
      }
      try {
        for (const subscriber of this.subscribers) {
          if (subscriber.types.includes(event.type)) await subscriber.deliver(event, tx);
        }
      } catch (error) {
        blockedAccounts.add(event.accountId);
        failed.set(rowId, error instanceof Error ? error.message : String(error));
        this.log.error({ err: error, eventId: event.id, type: event.type }, 'event delivery failed; will retry');
      }
    }
    const delivered = rows.filter((row) => !failed.has(row.id) && !waiting.has(row.id)).map((row) => row.id);
    return { delivered, failed };
  }
}
