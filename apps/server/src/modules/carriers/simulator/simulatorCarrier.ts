import { and, inArray, ne, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { arrayLiteral, backgroundBatch, queryRows, type Database, type Unlisten } from '../../../platform/db/client.js';
import { inBackground } from '../../../platform/db/sessionPriority.js';
import { phoneNumbers } from '../../../platform/db/schema/index.js';
import { bulkUuidV7 } from '../../contacts/index.js';
import type {
  AvailableNumber,
  BridgedCall,
  Carrier,
  CarrierCapabilities,
  CarrierHandlers,
  MediaItem,
  OutboundMessage,
  StatusReport,
  SubmitResult,
} from '../carrier.js';
import { inventoryCountryOf, simulatorInventory } from './inventory.js';
import { phoneMedia } from './media.js';
import { simulatedOutcome } from './outcome.js';
import { ringBridgedCall } from './calls.js';
import { announcePending, recordVerificationCall, SIMULATOR_PENDING_CHANNEL } from './phones.js';
import { loadSimulatorSettings } from './settings.js';
import { SubmitThrottle } from './throttle.js';
import { jsonRecords } from '../../../platform/db/jsonRecords.js';

export interface SimulatorCarrierOptions {
  database: Database;
  log: Logger;
  /** How often the loop looks for due receipts and replies while some are owed (default 100 ms). */
  pollIntervalMs?: number;
  /**
   * How often it looks when nothing is owed (default 2 s): a row put on the list announces itself
   * (SIMULATOR_PENDING_CHANNEL) and wakes the loop at once, so this is a backstop only.
   */
  idlePollIntervalMs?: number;
  /** The current time (default the system clock); tests move it. */
  clock?: () => Date;
  /** How long a claimed row is held before another loop may take it again (default 10 s). */
  leaseMs?: number;
  /** Rows claimed per round at most (default 2,000). */
  batchSize?: number;
}

export class SimulatorNumberUnavailableError extends Error {
  constructor(readonly number: string) {
    super(`${number} is not a number the simulator has for sale`);
    this.name = 'SimulatorNumberUnavailableError';
  }
}

/** The code a submit over the business number's rate is refused with (retryable). */
export const SIMULATOR_THROTTLED = 'throttled';

interface ClaimedRow extends Record<string, unknown> {
  id: string;
  /** null: the row is gone (nothing removes one but a reset), so nothing is owed. */
  kind: 'mt' | 'mo' | null;
  business_number: string;
  phone_number: string;
  body: string;
  media: { url: string; contentType: string }[];
  error_code: string | null;
  error_text: string | null;
  was_due_ms: number;
  created_ms: number;
}

const jsonParam = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;

/**
 * The embedded default carrier: a simulated network of virtual phones kept in simulator_messages. A submit
 * writes the message to its phone and decides, from the seed, what becomes of it; a loop reports the
 * receipts when their latency has passed and hands the phones' own messages to the engine.
 *
 * Determinism: the outcome and latency of the n-th message to a phone depend only on the seed, the phone and
 * n, so the same seed and the same sends give the same run. Two processes sending to one phone at the same
 * moment can both take the same n (they read the last one before either writes): their messages are still
 * both delivered or failed by the seed, but which got which is a matter of timing.
 */
export class SimulatorCarrier implements Carrier {
  readonly name = 'simulator' as const;
  readonly capabilities: CarrierCapabilities = {
    sms: true,
    mms: true,
    numberInventory: true,
    maxSubmitsPerSecond: null,
    idempotentSubmit: true,
  };

  private readonly database: Database;
  private readonly log: Logger;
  private readonly clock: () => Date;
  private readonly pollIntervalMs: number;
  private readonly idlePollIntervalMs: number;
  private readonly leaseMs: number;
  private readonly fixedBatchSize: number | null;
  /** The size of the last round's claim: a full one means more is due. */
  private lastBatchSize = 0;
  private readonly throttle = new SubmitThrottle();
  private handlers: CarrierHandlers | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;
  private unlisten: Unlisten | null = null;
  /** A row was announced while a round ran: the next round starts at once. */
  private wakeRequested = false;

  constructor(options: SimulatorCarrierOptions) {
    this.database = options.database;
    this.log = options.log;
    this.clock = options.clock ?? (() => new Date());
    this.pollIntervalMs = options.pollIntervalMs ?? 100;
    this.idlePollIntervalMs = Math.max(this.pollIntervalMs, options.idlePollIntervalMs ?? 2_000);
    this.leaseMs = options.leaseMs ?? 10_000;
    this.fixedBatchSize = options.batchSize ?? null;
  }

  /** 2,000 rows a round; on PGlite 500 while requests wait for its session (the receipts' write holds it). */
  private batchSize(): number {
    return this.fixedBatchSize ?? backgroundBatch(this.database, 2_000, 500);
  }

  async start(handlers: CarrierHandlers): Promise<void> {
    this.handlers = handlers;
    if (!this.stopped) return;
    this.stopped = false;
    this.unlisten = await this.database.listen(SIMULATOR_PENDING_CHANNEL, () => {
      this.wake();
    });
    // Its rounds stand for a carrier's bulk of receipts: background work on PGlite's one session.
    inBackground(() => {
      this.schedule(0);
    });
  }

  /** Ends the loop, waiting for the round in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    await this.unlisten?.();
    this.unlisten = null;
    await this.running;
  }

  async send(message: OutboundMessage): Promise<SubmitResult> {
    const [result] = await this.sendMany([message]);
    if (!result) throw new Error('the simulator answered no submit result');
    return result;
  }

  /**
   * Writes the messages to their phones in one statement. A message id sent before (a resubmit after a
   * crash) is the same row: the same carrier id, or the same refusal; its receipt, if already reported, is
   * reported again.
   */
  async sendMany(messages: readonly OutboundMessage[]): Promise<SubmitResult[]> {
    if (messages.length === 0) return [];
    const db = this.database.db;
    const now = this.clock();
    const settings = await loadSimulatorSettings(db);

    const results = new Map<string, SubmitResult>();
    const toWrite: OutboundMessage[] = [];
    const seen = new Set<string>();
    for (const message of messages) {
      if (seen.has(message.id)) continue;
      seen.add(message.id);
      if (this.throttle.take(message.from, settings.messagesPerSecond, now.getTime())) toWrite.push(message);
      else {
        results.set(message.id, {
          accepted: false,
          retryable: true,
          errorCode: SIMULATOR_THROTTLED,
          errorText: `Over ${String(settings.messagesPerSecond)} messages per second from ${message.from}`,
        });
      }
    }
    this.throttle.prune(now.getTime());

    if (toWrite.length > 0) {
      const phones = [...new Set(toWrite.map((m) => m.to))];
      const last = await queryRows<{ phone_number: string; last: number }>(
        db,
        sql`select phone_number, max(sequence)::int as last from simulator_messages
            where kind = 'mt' and phone_number in (select jsonb_array_elements_text(${jsonParam(phones)}))
            group by phone_number`,
      );
      const sequences = new Map(last.map((r) => [r.phone_number, r.last]));
      const media = new Map<string, MediaItem[]>();
      for (const m of toWrite) if (m.media.length > 0) media.set(m.id, await phoneMedia(m.accountId, m.media, now));
      const rows = toWrite.map((m) => {
        const sequence = (sequences.get(m.to) ?? 0) + 1;
        sequences.set(m.to, sequence);
        const outcome = simulatedOutcome(settings, m.to, sequence);
        const refused = outcome.kind === 'refused';
        return {
          id: bulkUuidV7(now.getTime()),
          ref: m.id,
          bn: m.from,
          pn: m.to,
          body: m.text,
          media: media.get(m.id) ?? [],
          status: refused ? 'failed' : 'accepted',
          ec: outcome.kind === 'delivered' ? null : outcome.errorCode,
          et: outcome.kind === 'delivered' ? null : outcome.errorText,
          seq: sequence,
          due: refused ? null : new Date(now.getTime() + outcome.delayMs).toISOString(),
          done: refused ? now.toISOString() : null,
        };
      });
      const written = await queryRows<{ id: string; ref: string; status: string; error_code: string | null; error_text: string | null }>(
        db,
        sql`with written as (
            insert into simulator_messages
              (id, ref, kind, business_number, phone_number, body, media, status, error_code, error_text, sequence, due_at, done_at)
            select r.id, r.ref, 'mt', r.bn, r.pn, r.body, r.media, r.status, r.ec, r.et, r.seq, r.due, r.done
            from json_to_recordset(${jsonRecords(rows)})
              as r(id uuid, ref text, bn text, pn text, body text, media jsonb, status text, ec text, et text, seq int,
                   due timestamptz, done timestamptz)
            -- A repeat of a message whose receipt went out already reports it again, due at once and dated
            -- as before: the first may have come while the message was back in the queue after a crash, with
            -- no carrier id to be matched by. (The right-hand sides read the row as it was.) The owed list
            -- gets it again below.
            on conflict (ref) where ref is not null do update
              set ref = excluded.ref,
                  done_at = case when simulator_messages.status in ('delivered', 'undelivered') then null
                                 else simulator_messages.done_at end,
                  due_at = case when simulator_messages.status in ('delivered', 'undelivered') then simulator_messages.done_at
                                else simulator_messages.due_at end
            returning id, ref, status, error_code, error_text, due_at, done_at
          ), owed as (
            -- What is owed goes on the loop's list; a row already there keeps its place and its lease.
            insert into simulator_pending (id, due_at)
            select id, due_at from written where done_at is null and due_at is not null
            on conflict (id) do nothing
          )
          select id, ref, status, error_code, error_text from written`,
      );
      if (written.some((row) => row.status !== 'failed')) await announcePending(db);
      for (const row of written) {
        results.set(
          row.ref,
          row.status === 'failed'
            ? { accepted: false, retryable: false, errorCode: row.error_code ?? 'failed', errorText: row.error_text ?? 'Refused' }
            : { accepted: true, carrierMessageId: row.id },
        );
      }
    }

    return messages.map((m) => {
      const result = results.get(m.id);
      if (!result) throw new Error(`the simulator wrote no row for message ${m.id}`);
      return result;
    });
  }

  /** The call a virtual phone takes: a 'call' row whose text reads the code out. */
  async placeVerificationCall(call: { from: string | null; to: string; code: string }): Promise<void> {
    await recordVerificationCall(this.database.db, call, this.clock());
  }

  /** Click-to-call on the simulated network: both virtual phones show the call (simulator/calls.ts). */
  async placeBridgedCall(call: BridgedCall): Promise<{ carrierCallId: string }> {
    await ringBridgedCall(this.database.db, call, this.clock());
    return { carrierCallId: call.callId };
  }

  /** The inventory's numbers for the country that no account holds (any status but released). */
  async availableNumbers(query: { country: string; limit: number }): Promise<AvailableNumber[]> {
    const inventory = simulatorInventory(query.country);
    if (inventory.length === 0 || query.limit <= 0) return [];
    const held = await this.database.db
      .select({ number: phoneNumbers.number })
      .from(phoneNumbers)
      .where(and(inArray(phoneNumbers.number, [...inventory]), ne(phoneNumbers.status, 'released')));
    const taken = new Set(held.map((r) => r.number));
    const country = query.country.trim().toUpperCase();
    const out: AvailableNumber[] = [];
    for (const number of inventory) {
      if (out.length >= query.limit) break;
      if (!taken.has(number)) out.push({ number, country, capabilities: { sms: true, mms: true } });
    }
    return out;
  }

  /** Buys a number of the inventory (the caller's unique index keeps one active holder). */
  buyNumber(number: string): Promise<{ carrierNumberId: string }> {
    if (inventoryCountryOf(number) === null) return Promise.reject(new SimulatorNumberUnavailableError(number));
    return Promise.resolve({ carrierNumberId: `sim-${number}` });
  }

  /** One round of the loop: receipts and phone messages that are due. Answers how many rows it claimed. */
  async pollOnce(): Promise<number> {
    const handlers = this.handlers;
    if (handlers === null) throw new Error('the simulator carrier is not started');
    const now = this.clock();
    const batchSize = this.batchSize();
    this.lastBatchSize = batchSize;
    // One statement, committed at once: the lease keeps other loops off these rows while the handlers run, and
    // no transaction is held meanwhile (PGlite has one connection; the handlers write). A row whose lease ran
    // out (its loop died or its handlers failed) is taken again.
    const claimed = await queryRows<ClaimedRow>(
      this.database.db,
      // Rows by their keys throughout (the arrays, the lateral join): the list's statistics are as of its last
      // ANALYZE, whatever its size now, and written as joins these statements took up to five times as long.
      sql`with c as (
            update simulator_pending p set leased_until = ${new Date(now.getTime() + this.leaseMs).toISOString()}::timestamptz
             where p.id = any(array(
                     select id from simulator_pending
                      where due_at <= ${now.toISOString()}::timestamptz
                        and (leased_until is null or leased_until <= ${now.toISOString()}::timestamptz)
                      order by due_at, id limit ${batchSize}
                      for update skip locked))
            returning p.id, p.due_at
          )
          select c.id, s.kind, s.business_number, s.phone_number, s.body, s.media, s.error_code, s.error_text,
                 (extract(epoch from c.due_at) * 1000)::float8 as was_due_ms, s.created_ms
            from c
            left join lateral (
              -- A receipt needs none of the text or media: only the phones' own messages carry them back.
              select m.kind, m.business_number, m.phone_number,
                     case when m.kind = 'mo' then m.body else '' end as body,
                     case when m.kind = 'mo' then m.media else '[]'::jsonb end as media, m.error_code, m.error_text,
                     (extract(epoch from m.created_at) * 1000)::float8 as created_ms
                from simulator_messages m where m.id = c.id
            ) s on true`,
    );
    if (claimed.length === 0) return 0;
    // An entry whose row is gone is dropped, so it never takes a place in later rounds.
    const done: string[] = claimed.filter((r) => r.kind === null).map((r) => r.id);

    const receipts = claimed.filter((r) => r.kind === 'mt');
    if (receipts.length > 0) {
      const reports: StatusReport[] = receipts.map((r) => ({
        carrierMessageId: r.id,
        status: r.error_code === null ? 'delivered' : 'undelivered',
        errorCode: r.error_code,
        errorText: r.error_text,
        at: new Date(r.was_due_ms),
      }));
      try {
        await handlers.statusMany(reports);
        done.push(...receipts.map((r) => r.id));
      } catch (error) {
        this.log.warn({ err: error, count: reports.length }, 'simulator receipts not taken; they are reported again after the lease');
      }
    }

    // In the order the phones sent them; a phone whose message failed waits, so its next one never overtakes it.
    const inbound = claimed
      .filter((r) => r.kind === 'mo')
      .sort((a, b) => a.created_ms - b.created_ms || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const waiting = new Set<string>();
    for (const r of inbound) {
      if (waiting.has(r.phone_number)) continue;
      try {
        await handlers.inbound({
          carrierMessageId: r.id,
          from: r.phone_number,
          to: r.business_number,
          text: r.body,
          media: r.media,
          receivedAt: new Date(r.created_ms),
        });
        done.push(r.id);
      } catch (error) {
        waiting.add(r.phone_number);
        this.log.warn({ err: error, id: r.id }, 'simulator inbound message not taken; it is handed again after the lease');
      }
    }

    if (done.length > 0) {
      // Off the owed list, and the row's status on its own page (no index holds done_at or status).
      await this.database.db.execute(
        sql`with finished as (
              delete from simulator_pending where id = any(${arrayLiteral(done)}::uuid[])
              returning id
            )
            update simulator_messages s
               set done_at = ${now.toISOString()}::timestamptz,
                   status = case when s.kind = 'mo' then 'handed' when s.error_code is null then 'delivered' else 'undelivered' end
             where s.id = any(array(select id from finished))`,
      );
    }
    return claimed.length;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.tick();
    }, delayMs);
    this.timer.unref();
  }

  /** A row went on the list: a sleeping loop looks at once, a running one goes on after its round. */
  private wake(): void {
    if (this.stopped) return;
    if (this.timer === null) {
      this.wakeRequested = true;
      return;
    }
    clearTimeout(this.timer);
    this.timer = null;
    inBackground(() => {
      this.schedule(0);
    });
  }

  private async tick(): Promise<void> {
    this.wakeRequested = false;
    let claimed = 0;
    let owed = true;
    try {
      claimed = await this.pollOnce();
      if (claimed === 0) owed = await this.somethingOwed();
    } catch (error) {
      this.log.error({ err: error }, 'simulator round failed');
    }
    // A full batch means more is due: go on at once. With nothing owed, only an announcement brings work.
    const more = claimed >= this.lastBatchSize || this.wakeRequested;
    this.schedule(more ? 0 : owed ? this.pollIntervalMs : this.idlePollIntervalMs);
  }

  private async somethingOwed(): Promise<boolean> {
    const [row] = await queryRows<{ owed: boolean }>(this.database.db, sql`select exists (select 1 from simulator_pending) as owed`);
    return row?.owed ?? true;
  }
}
