import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { v7 as uuidv7 } from 'uuid';
import type { SecretsConfig } from '../../platform/config.js';
import { queryRows, type Database } from '../../platform/db/client.js';
import { NotifiedLoop } from '../../platform/db/notifiedLoop.js';
import { createPooledFetch, type PooledFetch } from '../../platform/net/guardedFetch.js';
import type { SecretCipher } from '../../platform/secrets/cipher.js';
import { NOTIFICATIONS_CHANNEL } from './channels.js';
import type { DisabledEndpoint } from './deliveryResults.js';
import { WebhookResultsWriter } from './webhookResultsWriter.js';
import { DELIVERY_GIVE_UP_MS } from './retrySchedule.js';
import { EndpointCursor, readEvents, releaseLeases, takeLeases, type EventRow, type EventWant, type LeaseRow } from './webhookCursors.js';
import { bulkUuidV7 } from '../contacts/index.js';
import { openWebhookSecret, webhookSecretCipher } from './webhookSecret.js';
import { signWebhook } from './webhookSigning.js';


export interface WebhookSenderOptions {
  database: Database;
  secrets: SecretsConfig;
  /** FETCH_ALLOWED_HOSTS: non-public hosts a webhook may still go to. */
  allowedHosts: readonly string[];
  log: Logger;
  /** Told of an endpoint Parley disabled (410, or failing for days), after it is written. */
  onDisabled: (endpoint: DisabledEndpoint) => Promise<void>;
  /** Requests in flight to one endpoint at most. */
  perEndpoint?: number;
  timeoutMs?: number;
  pollIntervalMs?: number;
  /**
   * How long a claimed delivery is held before another sender may take it (its sender died); a webhook's
   * events are read by one sender at a time, which renews its hold while alive.
   */
  holdMs?: number;
}

type Claimed = {
  id: string;
  notification_id: string;
  account_id: string;
  event_id: string;
  event_type: string;
  body: string;
  attempts: number;
  created_at: Date | string;
  destination: string;
  secret: string | null;
  previous_secret: string | null;
  previous_secret_until: Date | string | null;
  /** Read from the webhook's cursor (no delivery row yet; `id` is the one its result writes), or null for a row. */
  position: number | null;
};

/** A webhook whose events this sender reads: where it goes, how it signs, and its cursor. */
interface Leased {
  row: LeaseRow;
  cursor: EndpointCursor;
}

/** Deliveries one claim takes at most, over all endpoints. */
const CLAIM_BATCH = 500;
/**
 * Deliveries claimed per endpoint and not yet answered (waiting or in flight), at most, in requests in flight:
 * a claim takes a few rounds of requests at once, not one per answer. Each waits at most this many timeouts
 * for its turn, which the hold (at least 4 timeouts) outlasts.
 */
const WINDOW_ROUNDS = 3;
/**
 * Events read per endpoint and not yet answered, at most, in requests in flight. Reading holds nothing in the
 * database (an event not sent stays past the cursor), so the reads run far ahead of the requests: an
 * endpoint's requests do not wait for the next read.
 */
const EVENT_WINDOW_ROUNDS = 15;
const RESPONSE_HEAD_BYTES = 1024;
/** An answer body read at most; a receiver's answer matters only by its status and first bytes. */
const RESPONSE_MAX_BYTES = 256 * 1024;
const USER_AGENT = 'Parley-Webhooks/1';
const EVENT_TOO_OLD = 'Not sent: the event waited over 3 days (the webhook was disabled)';
/** An endpoint's kept-open connections are closed once it has had nothing to send for this long. */
const POOL_IDLE_MS = 60_000;

const asDate = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));
const idList = (ids: readonly string[]) => sql`string_to_array(${ids.join(',')}, ',')`;

/** Rows grouped by their webhook, each group in the rows' order. */
function byNotification<T extends { notification_id: string }>(rows: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const group = groups.get(row.notification_id);
    if (group === undefined) groups.set(row.notification_id, [row]);
    else group.push(row);
  }
  return groups;
}

/** One endpoint's claimed deliveries: waiting for a free place, and in flight. */
interface EndpointWork {
  waiting: Claimed[];
  inFlight: number;
  /** Delivery rows claimed and not yet answered (waiting or in flight); the rest are events read. */
  rows: number;
  /** Its last claim took all the room it had (or it was left out): more may be due. */
  more: boolean;
}

/**
 * Sends webhook deliveries (docs/notifications.md, "Deliveries"): claims the due ones by holding them
 * (next_attempt_at moves past the hold) so no other sender takes them, a few rounds of requests per endpoint
 * at once, POSTs each signed through the guarded fetcher with kept-open connections, `perEndpoint` in flight
 * per endpoint, and writes the results in batches. An endpoint that is slow holds only its own deliveries. An
 * endpoint is claimed for again once half its claim is answered, while more may be due; otherwise new
 * deliveries (the fan-out's wake-up) and the poll bring the next claim. A sender that dies lets its held
 * deliveries go when the hold ends: they are sent again with the same webhook-id (at least once); those
 * it had not sent yet are sent once. One that stops lets go of those it had not sent at once.
 */
export class WebhookSender {
  private readonly loop: NotifiedLoop;
  /** Connections kept open per endpoint (notification), not per origin: endpoints of one service do not share them. */
  private readonly pools: PooledFetch;
  /** When each endpoint's pool was last used, to close the idle ones. */
  private readonly poolUsed = new Map<string, number>();
  private readonly perEndpoint: number;
  private readonly window: number;
  private readonly eventWindow: number;
  private readonly timeoutMs: number;
  private readonly holdMs: number;
  private readonly pollIntervalMs: number;
  private readonly endpoints = new Map<string, EndpointWork>();
  private readonly sending = new Set<Promise<void>>();
  /** Opened signing secrets by notification and sealed text: opening one per request cost more than signing. */
  private readonly opened = new Map<string, string>();
  private stopping = false;
  private readonly results: WebhookResultsWriter;
  private cipher: SecretCipher | null = null;
  /** The webhooks whose events this sender reads (docs/notifications.md, "Deliveries"). */
  private readonly leased = new Map<string, Leased>();
  private readonly senderId = uuidv7();
  private leasesTakenAt = 0;
  /** New events were written: take the webhooks that have them at the next round. */
  private newEvents = true;
  /** Delivery rows were made due (a resend, a test event: a NOTIFY): claim at the next round. */
  private rowsNotified = true;
  private rowsClaimedAt = 0;

  constructor(private readonly options: WebhookSenderOptions) {
    this.perEndpoint = options.perEndpoint ?? 8;
    this.window = this.perEndpoint * (1 + WINDOW_ROUNDS);
    this.eventWindow = this.perEndpoint * (1 + EVENT_WINDOW_ROUNDS);
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.holdMs = options.holdMs ?? Math.max(120_000, (2 + WINDOW_ROUNDS) * this.timeoutMs);
    this.pollIntervalMs = options.pollIntervalMs ?? 1000;
    this.results = new WebhookResultsWriter({ db: options.database.db, log: options.log, onDisabled: options.onDisabled, cursors: this.leased });
    this.pools = createPooledFetch({ allowedHosts: options.allowedHosts, keepAliveSockets: this.perEndpoint });
    this.loop = new NotifiedLoop({
      database: options.database,
      channel: NOTIFICATIONS_CHANNEL,
      pollIntervalMs: this.pollIntervalMs,
      log: options.log,
      failure: 'webhook sending round failed',
      notified: () => {
        this.rowsNotified = true;
      },
      round: () => this.round(),
    });
  }

  start(): Promise<void> {
    this.stopping = false;
    return this.loop.start();
  }

  /** New events were written (the fan-out). Deliveries made due say so by a NOTIFY (deliveryCommands.ts). */
  wake(): void {
    this.newEvents = true;
    this.loop.wake();
  }

  /**
   * Takes no more, lets go of the claimed deliveries not sent yet (another sender may take them at once),
   * lets the requests in flight end (each has its deadline) and writes their results.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.loop.stop();
    await this.release();
    await Promise.all([...this.sending]);
    await this.results.flush();
    // The events read but not sent stay past the cursors: whoever takes the webhooks next reads them again.
    await releaseLeases(this.options.database.db, this.senderId).catch((error: unknown) => {
      this.options.log.warn({ err: error }, 'webhooks could not be let go; another sender takes them when the hold ends');
    });
    this.leased.clear();
    this.endpoints.clear();
    this.newEvents = true;
    this.rowsNotified = true;
    this.pools.closeAll();
    this.poolUsed.clear();
  }

  /** One round: the delivery rows due, then the webhooks' events; true when more may be waiting. */
  async round(): Promise<boolean> {
    if (this.stopping) return false;
    this.closeIdlePools();
    const moreRows = this.rowsWanted() ? await this.claimRows() : false;
    const moreEvents = await this.readCursors();
    return moreRows || moreEvents;
  }

  /**
   * Whether to look for delivery rows due this round. Not at every round (an endpoint's answers start one, and
   * the look cost the database more than reading events): when a NOTIFY said some were made due, when an
   * endpoint's last claim was full and it has room again, and at the poll's pace for the retries the clock
   * makes due.
   */
  private rowsWanted(): boolean {
    if (this.rowsNotified || Date.now() - this.rowsClaimedAt >= this.pollIntervalMs) return true;
    for (const work of this.endpoints.values()) if (work.more && (this.window - work.rows) * 2 >= this.window) return true;
    return false;
  }

  /** Delivery rows due (retries, resends, test events): claims them by holding them; true on a full batch. */
  private async claimRows(): Promise<boolean> {
    this.rowsNotified = false;
    this.rowsClaimedAt = Date.now();
    // Endpoints with more than half their window claimed are left out: they have enough to do.
    const known = [...this.endpoints].map(([id, work]) => ({ id, work, room: this.window - work.rows }));
    const claimed = await queryRows<Claimed>(
      this.options.database.db,
      sql`with room as (
            select r.id, r.room
              from unnest(${idList(known.map((k) => k.id))}::uuid[], ${idList(known.map((k) => String(k.room)))}::int[]) as r(id, room)
          ), picked as (
            select d.id
              from notifications n
              left join room r on r.id = n.id
              cross join lateral (
                select d.id from notification_deliveries d
                 where d.notification_id = n.id and d.status = 'pending' and d.next_attempt_at <= now()
                 -- The due index's own order: a tie broken by id sorted every row due (a fan-out round's share one time).
                 order by d.next_attempt_at
                 limit coalesce(r.room, ${this.window})
                 for update skip locked
              ) d
             where n.type = 'webhook' and not n.disabled and coalesce(r.room, ${this.window}) * 2 >= ${this.window}
             limit ${CLAIM_BATCH}
          )
          update notification_deliveries d
             set next_attempt_at = now() + ${this.holdMs} * interval '1 millisecond', attempts = d.attempts + 1
            from picked p, notifications n
           where d.id = p.id and n.id = d.notification_id
       returning d.id, d.notification_id, d.account_id, d.event_id, d.event_type,
                 coalesce(d.body, (select e.body from notification_events e where e.position = d.event_position)) as body,
                 d.attempts, d.created_at, n.destination, n.secret, n.previous_secret, n.previous_secret_until, null::bigint as position`,
    );
    const byEndpoint = byNotification(claimed);
    for (const { id, work, room } of known) {
      // Left out: more may be due. Claimed for and given none: none is.
      if (room * 2 < this.window) work.more = true;
      else if (!byEndpoint.has(id)) work.more = false;
    }
    if (claimed.length > 0) {
      const cipher = await this.secretCipher();
      const roomOf = new Map(known.map((k) => [k.id, k.room]));
      // Given all the room it had: more may be due.
      for (const [endpoint, rows] of byEndpoint) {
        rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
        this.take(endpoint, rows, rows.length >= (roomOf.get(endpoint) ?? this.window), cipher);
      }
    }
    return claimed.length >= CLAIM_BATCH;
  }

  /**
   * Takes and renews webhooks (one sender reads a webhook's events at a time), then reads each one's next
   * events from where it has read to, up to its room, in one statement. True when a read filled
   * its room (more may be waiting).
   */
  private async readCursors(): Promise<boolean> {
    await this.renewLeases();
    const wants: EventWant[] = [];
    for (const [id, leased] of this.leased) {
      const room = this.eventWindow - this.eventsHeld(this.endpoints.get(id));
      if (!leased.cursor.more || room * 2 < this.eventWindow) continue;
      wants.push({ id, accountId: leased.row.account_id, after: leased.cursor.readPosition, limit: room, fresh: leased.cursor.fresh });
    }
    if (wants.length === 0) return false;
    const rows = await readEvents(this.options.database.db, this.senderId, wants);
    const byEndpoint = byNotification(rows);
    // Each event's body comes on one of its rows (webhookCursors.ts).
    const bodies = new Map<string, string>();
    for (const row of rows) if (row.position !== null && row.body !== null) bodies.set(String(row.position), row.body);
    let more = false;
    for (const want of wants) {
      const leased = this.leased.get(want.id);
      const answered = byEndpoint.get(want.id) ?? [];
      const first = answered[0];
      if (leased === undefined || first === undefined) continue;
      // Disabled meanwhile, or taken by another sender after this one stalled past its hold: no more is read.
      if (!first.held) {
        this.leased.delete(want.id);
        continue;
      }
      const got = answered.filter((r) => r.position !== null);
      // Before the cursor hears of them: a read that fails here leaves the cursor as it was.
      const claimed = got.map((r) => this.claimedOf(leased.row, r, bodies));
      const { cursor } = leased;
      cursor.fresh = false;
      cursor.more = got.length >= want.limit;
      more ||= cursor.more;
      for (const r of got) cursor.read(Number(r.position));
      if (!cursor.more) cursor.readTo(Number(first.horizon));
      if (claimed.length > 0) this.take(want.id, claimed, null, await this.secretCipher());
      // Read past events it does not want: its cursor moves with the next batch of results.
      else if (cursor.readPosition > cursor.writtenPosition) this.results.schedule();
    }
    return more;
  }

  private async renewLeases(): Promise<void> {
    const now = Date.now();
    // Not at every round (an endpoint's answers start one): when events were written here, else at the poll's pace.
    if (!this.newEvents && now - this.leasesTakenAt < this.pollIntervalMs) return;
    this.newEvents = false;
    this.leasesTakenAt = now;
    // New events may be for every held webhook: each reads again from where it has read to.
    for (const { cursor } of this.leased.values()) cursor.more = true;
    const rows = await takeLeases(this.options.database.db, this.senderId, [...this.leased.keys()], this.holdMs);
    for (const row of rows) {
      const known = this.leased.get(row.id);
      if (known === undefined) this.leased.set(row.id, { row, cursor: new EndpointCursor(Number(row.sent_position)) });
      else known.row = row;
    }
  }

  private claimedOf(lease: LeaseRow, event: EventRow, bodies: ReadonlyMap<string, string>): Claimed {
    const body = bodies.get(String(event.position));
    // Every event a read answers has its body on one of its rows; an event without one is never sent empty.
    if (body === undefined) throw new Error(`event ${String(event.position)} was read without its body`);
    return {
      id: bulkUuidV7(),
      notification_id: lease.id,
      account_id: lease.account_id,
      event_id: event.event_id ?? '',
      event_type: event.event_type ?? '',
      body,
      attempts: 1,
      created_at: event.created_at ?? new Date(),
      destination: lease.destination,
      secret: lease.secret,
      previous_secret: lease.previous_secret,
      previous_secret_until: lease.previous_secret_until,
      position: Number(event.position),
    };
  }

  private closeIdlePools(): void {
    const idleSince = Date.now() - POOL_IDLE_MS;
    for (const [endpoint, used] of this.poolUsed) {
      if (used >= idleSince || this.endpoints.has(endpoint)) continue;
      this.pools.close(endpoint);
      this.poolUsed.delete(endpoint);
    }
  }

  private async secretCipher(): Promise<SecretCipher> {
    this.cipher ??= await webhookSecretCipher(this.options.secrets);
    return this.cipher;
  }

  private eventsHeld(work: EndpointWork | undefined): number {
    return work === undefined ? 0 : work.waiting.length + work.inFlight - work.rows;
  }

  /**
   * Queues an endpoint's deliveries and sends what fits: events read after those waiting, oldest first;
   * delivery rows (`moreRows` not null: due retries, resends) before them, since they are due now.
   */
  private take(endpoint: string, rows: Claimed[], moreRows: boolean | null, cipher: SecretCipher): void {
    const known = this.endpoints.get(endpoint);
    const work = known ?? { waiting: [], inFlight: 0, rows: 0, more: moreRows ?? false };
    if (known === undefined) this.endpoints.set(endpoint, work);
    if (moreRows === null) work.waiting.push(...rows);
    else {
      work.more = moreRows;
      work.rows += rows.length;
      work.waiting.unshift(...rows);
    }
    this.pump(endpoint, work, cipher);
  }

  /** Starts the endpoint's waiting deliveries while it has free places. */
  private pump(endpoint: string, work: EndpointWork, cipher: SecretCipher): void {
    while (!this.stopping && work.inFlight < this.perEndpoint) {
      const row = work.waiting.shift();
      if (row === undefined) break;
      work.inFlight += 1;
      const sent = this.send(row, cipher).finally(() => {
        work.inFlight -= 1;
        if (row.position === null) work.rows -= 1;
        this.sending.delete(sent);
        this.pump(endpoint, work, cipher);
        const moreEvents = this.leased.get(endpoint)?.cursor.more === true;
        if (work.waiting.length + work.inFlight === 0 && !work.more && !moreEvents) this.endpoints.delete(endpoint);
        // Half its window answered and more may be due: claim or read again.
        else if ((work.more && work.rows * 2 <= this.window) || (moreEvents && this.eventsHeld(work) * 2 <= this.eventWindow)) this.loop.wake();
      });
      this.sending.add(sent);
    }
  }

  /** The claimed deliveries not sent yet, let go: due again now, their claim's try not counted. */
  private async release(): Promise<void> {
    // Events read but not sent need nothing: they are past their webhook's cursor.
    const waiting = [...this.endpoints.values()]
      .flatMap((work) => {
        const rows = work.waiting.splice(0).filter((r) => r.position === null);
        work.rows -= rows.length;
        return rows;
      });
    if (waiting.length === 0) return;
    try {
      await this.options.database.db.execute(sql`
        update notification_deliveries d
           set next_attempt_at = now(), attempts = d.attempts - 1
          from unnest(${idList(waiting.map((r) => r.id))}::uuid[], ${idList(waiting.map((r) => String(r.attempts)))}::int[]) as w(id, attempts)
         where d.id = w.id and d.attempts = w.attempts and d.status = 'pending'`);
    } catch (error) {
      // They stay held; when the hold ends another sender takes them.
      this.options.log.warn({ err: error, deliveries: waiting.length }, 'claimed webhook deliveries could not be let go');
    }
  }

  /** The secrets that sign: the current one, and the rotated-out one during its overlap. */
  private secretsOf(row: Claimed, cipher: SecretCipher, at: Date): string[] {
    if (row.secret === null) return [];
    const secrets = [this.open(cipher, row.notification_id, row.secret)];
    if (row.previous_secret !== null && row.previous_secret_until !== null && asDate(row.previous_secret_until) > at) {
      secrets.push(this.open(cipher, row.notification_id, row.previous_secret));
    }
    return secrets;
  }

  private open(cipher: SecretCipher, notificationId: string, sealed: string): string {
    const key = `${notificationId}:${sealed}`;
    let secret = this.opened.get(key);
    if (secret === undefined) {
      secret = openWebhookSecret(cipher, notificationId, sealed);
      // Rotated-out secrets leave entries behind; a sender that has opened many starts afresh.
      if (this.opened.size >= 10_000) this.opened.clear();
      this.opened.set(key, secret);
    }
    return secret;
  }

  private async send(row: Claimed, cipher: SecretCipher): Promise<void> {
    const at = new Date();
    const started = performance.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    let responseHead: string | null = null;
    try {
      // Read from a cursor after waiting longer than its retries would have (its webhook was disabled meanwhile).
      if (row.position !== null && at.getTime() - asDate(row.created_at).getTime() > DELIVERY_GIVE_UP_MS) throw new Error(EVENT_TOO_OLD);
      const headers = { ...signWebhook(this.secretsOf(row, cipher, at), row.event_id, at, row.body), 'content-type': 'application/json', 'user-agent': USER_AGENT };
      this.poolUsed.set(row.notification_id, Date.now());
      const answer = await this.pools.pool(row.notification_id)(row.destination, {
        method: 'POST',
        headers,
        body: row.body,
        timeoutMs: this.timeoutMs,
        maxRedirects: 0,
        maxBytes: RESPONSE_MAX_BYTES,
      });
      statusCode = answer.status;
      responseHead = answer.body.subarray(0, RESPONSE_HEAD_BYTES).toString('utf8');
    } catch (caught) {
      error = caught instanceof Error ? caught.message : String(caught);
    }
    this.results.add({
      channel: 'webhook',
      deliveryId: row.id,
      notificationId: row.notification_id,
      accountId: row.account_id,
      attempt: row.attempts,
      createdAt: asDate(row.created_at),
      at,
      durationMs: Math.round(performance.now() - started),
      statusCode,
      error,
      responseHead,
      event: row.position === null ? null : { position: row.position, eventId: row.event_id, eventType: row.event_type },
    });
  }
}
