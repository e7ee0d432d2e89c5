import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { OutboxEventPayload } from '@parley/shared';
import type { Database } from '../db/client.js';
import { NotifiedLoop } from '../db/notifiedLoop.js';
import { queryRows } from '../db/client.js';
import { events } from '../db/schema/index.js';
import { toPayload } from './outboxPayload.js';
import { laneOf, OUTBOX_CHANNEL, OUTBOX_DELIVERED_TYPES, type OutboxLane } from './outbox.js';

export interface EventSubscriber {
  readonly name: string;
  /** The event types it delivers; each must be one of OUTBOX_DELIVERED_TYPES (the others are written dispatched). */
  readonly types: readonly string[];
  /** Throwing leaves the event (and later events of its account) pending for the next round. */
  deliver(event: OutboxEventPayload): Promise<void>;
  /** Called after each round has committed, for work done once per round rather than per event. */
  flush?(): Promise<void>;
}

export interface DispatcherOptions {
  batchSize?: number;
  /** How often to look for pending events when no NOTIFY arrives (retries, missed wake-ups). */
  pollIntervalMs?: number;
}

// One dispatcher at a time per lane across all processes, so each lane's events leave in id order.
const DISPATCH_LOCK_KEY = 7_311_042_002;

/** The lanes of the delivered types: no other lane has pending events. */
const lanes: readonly OutboxLane[] = [...new Set(OUTBOX_DELIVERED_TYPES.map(laneOf))];

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
  private readonly loops: NotifiedLoop[];

  constructor(
    private readonly database: Database,
    private readonly subscribers: readonly EventSubscriber[],
    private readonly log: Logger,
    options: DispatcherOptions = {},
  ) {
    for (const subscriber of subscribers) {
      const undelivered = subscriber.types.filter((type) => !OUTBOX_DELIVERED_TYPES.includes(type));
      if (undelivered.length > 0) {
        throw new Error(`${subscriber.name} would deliver ${undelivered.join(', ')}, which platform/events/outbox.ts writes already dispatched`);
      }
    }
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

      const delivered: number[] = [];
      const failed = new Map<number, string>();
      const blockedAccounts = new Set<string | null>();
      for (const row of rows) {
        if (blockedAccounts.has(row.accountId)) continue;
        const payload = toPayload(row);
        try {
          for (const subscriber of this.subscribers) await subscriber.deliver(payload);
          delivered.push(row.id);
        } catch (error) {
          blockedAccounts.add(row.accountId);
          const message = error instanceof Error ? error.message : String(error);
          failed.set(row.id, message);
          this.log.error({ err: error, eventId: row.id, type: row.type }, 'event delivery failed; will retry');
        }
      }
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
}
