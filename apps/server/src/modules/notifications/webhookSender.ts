import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { SecretsConfig } from '../../platform/config.js';
import { queryRows, type Database } from '../../platform/db/client.js';
import { NotifiedLoop } from '../../platform/db/notifiedLoop.js';
import { createPooledFetch, type PooledFetch } from '../../platform/net/guardedFetch.js';
import type { SecretCipher } from '../../platform/secrets/cipher.js';
import { NOTIFICATIONS_CHANNEL } from './channels.js';
import type { TryResult } from './deliveryOutcome.js';
import { writeTryResults, type DisabledEndpoint } from './deliveryResults.js';
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
  /** How long a claimed delivery is held before another sender may take it (its sender died). */
  holdMs?: number;
}

type Claimed = {
  id: string;
  notification_id: string;
  account_id: string;
  event_id: string;
  body: string;
  attempts: number;
  created_at: Date | string;
  destination: string;
  secret: string | null;
  previous_secret: string | null;
  previous_secret_until: Date | string | null;
};

/** Deliveries one claim takes at most, over all endpoints. */
const CLAIM_BATCH = 500;
/**
 * Deliveries claimed per endpoint and not yet answered (waiting or in flight), at most, in requests in flight:
 * a claim takes a few rounds of requests at once, not one per answer. Each waits at most this many timeouts
 * for its turn, which the hold (at least 4 timeouts) outlasts.
 */
const WINDOW_ROUNDS = 3;
/** Results a statement writes at most, and how long the first of a batch waits for others. */
const RESULTS_BATCH = 1000;
const RESULTS_FLUSH_MS = 100;
const RESPONSE_HEAD_BYTES = 1024;
/** An answer body read at most; a receiver's answer matters only by its status and first bytes. */
const RESPONSE_MAX_BYTES = 256 * 1024;
const USER_AGENT = 'Parley-Webhooks/1';
/** An endpoint's kept-open connections are closed once it has had nothing to send for this long. */
const POOL_IDLE_MS = 60_000;

const asDate = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));
const idList = (ids: readonly string[]) => sql`string_to_array(${ids.join(',')}, ',')`;

/** One endpoint's claimed deliveries: waiting for a free place, and in flight. */
interface EndpointWork {
  waiting: Claimed[];
  inFlight: number;
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
  private readonly timeoutMs: number;
  private readonly holdMs: number;
  private readonly endpoints = new Map<string, EndpointWork>();
  private readonly sending = new Set<Promise<void>>();
  /** Opened signing secrets by notification and sealed text: opening one per request cost more than signing. */
  private readonly opened = new Map<string, string>();
  private stopping = false;
  private results: TryResult[] = [];
  private flushTimer: NodeJS.Timeout | null = null;
  private writing: Promise<void> | null = null;
  private cipher: SecretCipher | null = null;

  constructor(private readonly options: WebhookSenderOptions) {
    this.perEndpoint = options.perEndpoint ?? 8;
    this.window = this.perEndpoint * (1 + WINDOW_ROUNDS);
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.holdMs = options.holdMs ?? Math.max(120_000, (2 + WINDOW_ROUNDS) * this.timeoutMs);
    this.pools = createPooledFetch({ allowedHosts: options.allowedHosts, keepAliveSockets: this.perEndpoint });
    this.loop = new NotifiedLoop({
      database: options.database,
      channel: NOTIFICATIONS_CHANNEL,
      pollIntervalMs: options.pollIntervalMs ?? 1000,
      log: options.log,
      failure: 'webhook sending round failed',
      round: () => this.round(),
    });
  }

  start(): Promise<void> {
    this.stopping = false;
    return this.loop.start();
  }

  wake(): void {
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
    await this.flushResults();
    this.pools.closeAll();
    this.poolUsed.clear();
  }

  /** One claim; true when it found a full batch (more may be due). */
  async round(): Promise<boolean> {
    if (this.stopping) return false;
    this.closeIdlePools();
    // Endpoints with more than half their window claimed are left out: they have enough to do.
    const known = [...this.endpoints].map(([id, work]) => ({ id, work, room: this.window - work.waiting.length - work.inFlight }));
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
       returning d.id, d.notification_id, d.account_id, d.event_id, d.body, d.attempts, d.created_at,
                 n.destination, n.secret, n.previous_secret, n.previous_secret_until`,
    );
    const byEndpoint = new Map<string, Claimed[]>();
    for (const row of claimed) {
      const rows = byEndpoint.get(row.notification_id);
      if (rows === undefined) byEndpoint.set(row.notification_id, [row]);
      else rows.push(row);
    }
    for (const { id, work, room } of known) {
      // Left out: more may be due. Claimed for and given none: none is.
      if (room * 2 < this.window) work.more = true;
      else if (!byEndpoint.has(id)) work.more = false;
    }
    if (claimed.length > 0) {
      const cipher = await this.secretCipher();
      const roomOf = new Map(known.map((k) => [k.id, k.room]));
      // Given all the room it had: more may be due.
      for (const [endpoint, rows] of byEndpoint) this.take(endpoint, rows, rows.length >= (roomOf.get(endpoint) ?? this.window), cipher);
    }
    return claimed.length >= CLAIM_BATCH;
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

  /** Queues an endpoint's claimed deliveries, oldest first (ids are time-ordered), and sends what fits. */
  private take(endpoint: string, rows: Claimed[], more: boolean, cipher: SecretCipher): void {
    const known = this.endpoints.get(endpoint);
    const work = known ?? { waiting: [], inFlight: 0, more };
    if (known === undefined) this.endpoints.set(endpoint, work);
    work.more = more;
    rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    work.waiting.push(...rows);
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
        this.sending.delete(sent);
        this.pump(endpoint, work, cipher);
        const held = work.waiting.length + work.inFlight;
        if (held === 0 && !work.more) this.endpoints.delete(endpoint);
        // Half its window answered and more may be due: claim again.
        else if (work.more && held * 2 <= this.window) this.loop.wake();
      });
      this.sending.add(sent);
    }
  }

  /** The claimed deliveries not sent yet, let go: due again now, their claim's try not counted. */
  private async release(): Promise<void> {
    const waiting = [...this.endpoints.values()].flatMap((work) => work.waiting.splice(0));
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
    this.results.push({
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
    });
    this.scheduleFlush();
  }

  /**
   * Results are written by one writer at a time, each batch one statement of up to RESULTS_BATCH: what comes
   * while it writes waits for the next batch. Writing each 50 ms's results in a transaction of its own, one
   * after another, fell behind a busy database for good: results waited longer than the hold, and their
   * deliveries were sent again though answered (`bench webhooks`, docs/notifications.md).
   */
  private scheduleFlush(): void {
    if (this.writing !== null) return;
    if (this.results.length >= RESULTS_BATCH) {
      void this.flushResults();
      return;
    }
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = null;
      void this.flushResults();
    }, RESULTS_FLUSH_MS);
  }

  /** Writes every result gathered so far (and those that come meanwhile), in batches. */
  private flushResults(): Promise<void> {
    if (this.flushTimer !== null) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    this.writing ??= this.writeAll().finally(() => {
      this.writing = null;
      // Results that came after the last batch was taken.
      if (this.results.length > 0) this.scheduleFlush();
    });
    return this.writing;
  }

  private async writeAll(): Promise<void> {
    while (this.results.length > 0) await this.writeBatch(this.results.splice(0, RESULTS_BATCH));
  }

  private async writeBatch(batch: readonly TryResult[]): Promise<void> {
    if (batch.length === 0) return;
    try {
      const disabled = await writeTryResults(this.options.database.db, batch);
      for (const endpoint of disabled) await this.options.onDisabled(endpoint);
    } catch (error) {
      // The deliveries stay held; when the hold ends they are sent again (same webhook-id).
      this.options.log.error({ err: error, results: batch.length }, 'webhook results could not be written');
    }
  }
}
