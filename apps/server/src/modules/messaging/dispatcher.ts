import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { CarrierRegistry } from '../carriers/index.js';
import { backgroundBatch, type Database, type Queryable } from '../../platform/db/client.js';
import { NotifiedLoop } from '../../platform/db/notifiedLoop.js';
import { claimDueMessages, type Claim } from './dispatcherClaim.js';
import { recoverStaleClaims, type Recovered } from './dispatcherRecovery.js';
import { MAX_SUBMIT_ATTEMPTS, writeOutcomes, type WrittenResults } from './dispatcherResults.js';
import { at } from './dispatcherRows.js';
import { submitClaim, type SubmitOutcome } from './dispatcherSubmit.js';
import { jsonRecords } from '../../platform/db/jsonRecords.js';

/** NOTIFY on this channel (after queueing messages) wakes the dispatchers at once instead of at their next poll. */
export const MESSAGE_QUEUE_CHANNEL = 'parley_messages';

/**
 * Wakes the dispatchers when the caller's transaction commits (a rollback drops it), so messages it queued
 * leave without waiting for a poll.
 */
export async function wakeDispatchers(tx: Queryable): Promise<void> {
  await tx.execute(sql`select pg_notify(${MESSAGE_QUEUE_CHANNEL}, '')`);
}

export interface MessageDispatcherOptions {
  database: Database;
  carriers: CarrierRegistry;
  log: Logger;
  /** How long an idle dispatcher waits before looking again when no NOTIFY wakes it. Default 250 ms. */
  pollIntervalMs?: number;
  /** Most messages claimed (and submitted) at once. Default 1000. */
  batchSize?: number;
  /**
   * How old a claim may get before another dispatcher takes it for the claimant's death. A live dispatcher
   * renews its claims every third of this while submits are in flight. Default 60 s.
   */
  leaseSeconds?: number;
  /** A number is given at most messagesPerSecond × this many seconds' worth in one claim. Default 1 s. */
  roundSeconds?: number;
  /** Submits in flight at once per carrier connection for adapters without sendMany. Default 32. */
  submitConcurrency?: number;
  maxAttempts?: number;
  /** The time the dispatcher goes by (tests move it); default the system clock. */
  clock?: () => Date;
}

export interface DispatchRound extends WrittenResults {
  claimed: number;
  /** Put back for quiet hours at the claim. */
  held: number;
  recovered: Recovered;
}

const noneRecovered: Recovered = { requeued: 0, failed: 0 };

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends queued messages: the message table is the queue (docs/messaging.md). A round claims due messages
 * per number within its rate and the recipient's quiet hours and commits them as 'sending' (short
 * transaction), submits them to each number's carrier, then writes the answers set-based in a second
 * transaction. A message is never submitted twice: it is 'sending' before any submit, and one whose
 * dispatcher died is resubmitted only to a carrier with idempotent submits (else failed 'unknown-outcome'
 * and refunded). Any number of dispatchers may run on one PostgreSQL database.
 */
export class MessageDispatcher {
  private readonly database: Database;
  private readonly carriers: CarrierRegistry;
  private readonly log: Logger;
  private readonly pollIntervalMs: number;
  private readonly fixedBatchSize: number | null;
  private readonly leaseSeconds: number;
  private readonly roundSeconds: number;
  private readonly submitConcurrency: number;
  private readonly maxAttempts: number;
  private readonly clock: () => Date;
  private readonly loop: NotifiedLoop;
  private lastRecoveryAt = Number.NEGATIVE_INFINITY;

  constructor(options: MessageDispatcherOptions) {
    this.database = options.database;
    this.carriers = options.carriers;
    this.log = options.log;
    this.pollIntervalMs = options.pollIntervalMs ?? 250;
    this.fixedBatchSize = options.batchSize ?? null;
    this.leaseSeconds = options.leaseSeconds ?? 60;
    this.roundSeconds = options.roundSeconds ?? 1;
    this.submitConcurrency = options.submitConcurrency ?? 32;
    this.maxAttempts = options.maxAttempts ?? MAX_SUBMIT_ATTEMPTS;
    this.clock = options.clock ?? (() => new Date());
    this.loop = new NotifiedLoop({
      database: this.database,
      channel: MESSAGE_QUEUE_CHANNEL,
      pollIntervalMs: this.pollIntervalMs,
      log: this.log,
      failure: 'message dispatch round failed',
      round: async () => (await this.dispatchOnce()).claimed > 0,
    });
  }

  /** 1,000 messages a batch; on PGlite 250 while requests wait for its session (a claim or write holds it). */
  private batchSize(): number {
    return this.fixedBatchSize ?? backgroundBatch(this.database, 1000, 250);
  }

  start(): Promise<void> {
    return this.loop.start();
  }

  /** Finishes the batch in flight (its results are written), then stops. */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  wake(): void {
    this.loop.wake();
  }

  /** One round: recovery of dead dispatchers' claims (now and then), a claim, its submits, their results. */
  async dispatchOnce(): Promise<DispatchRound> {
    const recovered = await this.recoverIfDue();
    const startedAt = performance.now();
    const claim = await this.database.db.transaction((tx) =>
      claimDueMessages(tx, { now: this.clock(), batchSize: this.batchSize(), roundSeconds: this.roundSeconds }, this.log),
    );
    const round: DispatchRound = { claimed: 0, held: claim.held, sent: 0, failed: 0, retried: 0, refunded: 0, recovered };
    if (claim.messages.length === 0) return round;

    const claimedAt = performance.now();
    const renewal = this.renewWhileSubmitting(claim);
    let outcomes: SubmitOutcome[];
    try {
      outcomes = await submitClaim(this.carriers, claim.messages, this.submitConcurrency);
    } finally {
      await renewal.stop();
    }
    const submittedAt = performance.now();
    const written = await this.writeWithRetries(claim, outcomes);
    this.log.debug(
      {
        claimed: claim.messages.length,
        claimMs: Math.round(claimedAt - startedAt),
        submitMs: Math.round(submittedAt - claimedAt),
        writeMs: Math.round(performance.now() - submittedAt),
      },
      'dispatch round',
    );
    return { ...round, ...written, claimed: claim.messages.length };
  }

  private async recoverIfDue(): Promise<Recovered> {
    const now = this.clock();
    // Often enough that a dead dispatcher's messages wait little more than the lease.
    if (now.getTime() - this.lastRecoveryAt < Math.min(this.leaseSeconds * 500, 5000)) return noneRecovered;
    this.lastRecoveryAt = now.getTime();
    return recoverStaleClaims(
      this.database.db,
      this.carriers,
      { now, leaseSeconds: this.leaseSeconds, limit: this.batchSize() },
      this.log,
    );
  }

  /**
   * Keeps the claim's lease fresh while its submits take their time (a slow carrier, timeouts), so no other
   * dispatcher mistakes it for a dead one's. The claim's token follows the renewals.
   */
  private renewWhileSubmitting(claim: Claim): { stop: () => Promise<void> } {
    let pending: Promise<void> = Promise.resolve();
    const ids = claim.messages.map((m) => ({ id: m.id }));
    const renew = async (): Promise<void> => {
      const token = this.clock();
      if (token.getTime() === claim.token.getTime()) return;
      await this.database.db.execute(sql`
        update messages m set claimed_at = ${at(token)}
          from json_to_recordset(${jsonRecords(ids)}) as v(id uuid)
         where m.id = v.id and m.status = 'sending' and m.claimed_at = ${at(claim.token)}`);
      claim.token = token;
    };
    const timer = setInterval(() => {
      pending = pending.then(renew).catch((error: unknown) => {
        this.log.warn({ err: error }, 'could not renew the claim of messages being submitted');
      });
    }, (this.leaseSeconds * 1000) / 3);
    return {
      stop: async () => {
        clearInterval(timer);
        await pending;
      },
    };
  }

  /**
   * The results must reach the database: a lost write would leave the messages 'sending' until recovery
   * fails them as 'unknown-outcome' although the carrier answered. A few tries, then the error goes up.
   */
  private async writeWithRetries(claim: Claim, outcomes: readonly SubmitOutcome[]): Promise<WrittenResults> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.database.db.transaction((tx) =>
          writeOutcomes(tx, claim.token, outcomes, this.clock(), this.maxAttempts),
        );
      } catch (error) {
        if (attempt >= 5) throw error;
        this.log.warn({ err: error, attempt }, 'writing submit results failed; trying again');
        await sleep(200 * attempt);
      }
    }
  }
}
