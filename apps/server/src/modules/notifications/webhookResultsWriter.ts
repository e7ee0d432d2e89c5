import type { Logger } from 'pino';
import type { Db } from '../../platform/db/client.js';
import type { TryResult } from './deliveryOutcome.js';
import { writeTryResults, type CursorMove, type DisabledEndpoint } from './deliveryResults.js';
import type { EndpointCursor } from './webhookCursors.js';

/** Results a statement writes at most, and how long the first of a batch waits for others. */
const RESULTS_BATCH = 1000;
const RESULTS_FLUSH_MS = 100;

export interface WebhookResultsWriterOptions {
  db: Db;
  log: Logger;
  onDisabled: (endpoint: DisabledEndpoint) => Promise<void>;
  /** The cursors of the webhooks the sender reads, by notification: a batch moves them, a failed one drops them. */
  cursors: Map<string, { cursor: EndpointCursor }>;
}

/**
 * The webhook sender's results, written by one writer at a time, each batch one statement of up to
 * RESULTS_BATCH with the cursors it moves: what comes while it writes waits for the next batch. Writing each
 * 50 ms's results in a transaction of its own, one after another, fell behind a busy database for good:
 * results waited longer than the hold, and their deliveries were sent again though answered (`bench
 * webhooks`, docs/notifications.md).
 */
export class WebhookResultsWriter {
  private results: TryResult[] = [];
  private flushTimer: NodeJS.Timeout | null = null;
  private writing: Promise<void> | null = null;

  constructor(private readonly options: WebhookResultsWriterOptions) {}

  add(result: TryResult): void {
    this.results.push(result);
    this.schedule();
  }

  /** A batch soon, even with no results: a cursor read past events of other webhooks moves with it. */
  schedule(): void {
    if (this.writing !== null) return;
    if (this.results.length >= RESULTS_BATCH) {
      void this.flush();
      return;
    }
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = null;
      void this.flush();
    }, RESULTS_FLUSH_MS);
  }

  /** Writes every result gathered so far (and those that come meanwhile), in batches. */
  flush(): Promise<void> {
    if (this.flushTimer !== null) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    this.writing ??= this.writeAll().finally(() => {
      this.writing = null;
      // Results that came after the last batch was taken.
      if (this.results.length > 0) this.schedule();
    });
    return this.writing;
  }

  private async writeAll(): Promise<void> {
    for (;;) {
      const batch = this.results.splice(0, RESULTS_BATCH);
      const moves = this.cursorMoves(batch);
      if (batch.length === 0 && moves.length === 0) return;
      await this.writeBatch(batch, moves);
    }
  }

  /** The cursors a batch moves: each webhook's up to just before the oldest event it read whose result is not in this batch or before. */
  private cursorMoves(batch: readonly TryResult[]): CursorMove[] {
    const { cursors } = this.options;
    for (const r of batch) if (r.event !== null) cursors.get(r.notificationId)?.cursor.record(r.event.position);
    const moves: CursorMove[] = [];
    for (const [id, { cursor }] of cursors) {
      const position = cursor.advance();
      if (position !== null) moves.push({ id, position });
    }
    return moves;
  }

  private async writeBatch(batch: readonly TryResult[], moves: readonly CursorMove[]): Promise<void> {
    try {
      const disabled = await writeTryResults(this.options.db, batch, moves);
      for (const endpoint of disabled) await this.options.onDisabled(endpoint);
    } catch (error) {
      // The delivery rows stay held: when the hold ends they are sent again (same webhook-id). The webhooks
      // whose events were in the batch are let go here and taken afresh when their hold ends: read again from
      // their cursors, skipping the events that have a delivery row.
      for (const r of batch) if (r.event !== null) this.options.cursors.delete(r.notificationId);
      for (const move of moves) this.options.cursors.delete(move.id);
      this.options.log.error({ err: error, results: batch.length }, 'webhook results could not be written');
    }
  }
}
