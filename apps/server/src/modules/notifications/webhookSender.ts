import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { SecretsConfig } from '../../platform/config.js';
import { queryRows, type Database } from '../../platform/db/client.js';
import { NotifiedLoop } from '../../platform/db/notifiedLoop.js';
import { createGuardedFetch, type GuardedFetch } from '../../platform/net/guardedFetch.js';
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

const CLAIM_BATCH = 200;
const RESULTS_BATCH = 200;
const RESULTS_FLUSH_MS = 25;
const RESPONSE_HEAD_BYTES = 1024;
/** An answer body read at most; a receiver's answer matters only by its status and first bytes. */
const RESPONSE_MAX_BYTES = 256 * 1024;
const USER_AGENT = 'Parley-Webhooks/1';

const asDate = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));

/**
 * Sends webhook deliveries (docs/notifications.md, "Deliveries"): claims the due ones, a few per endpoint, by
 * holding them (next_attempt_at moves past the hold) so no other sender takes them, POSTs each signed
 * through the guarded fetcher with kept-open connections, and writes the results in batches. An endpoint
 * that is slow holds only its own deliveries. A sender that dies lets its held deliveries go when the hold
 * ends: they are sent again with the same webhook-id (at least once).
 */
export class WebhookSender {
  private readonly loop: NotifiedLoop;
  private readonly fetch: GuardedFetch;
  private readonly perEndpoint: number;
  private readonly timeoutMs: number;
  private readonly holdMs: number;
  private readonly inFlight = new Map<string, number>();
  private readonly sending = new Set<Promise<void>>();
  private results: TryResult[] = [];
  private flushTimer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private cipher: SecretCipher | null = null;

  constructor(private readonly options: WebhookSenderOptions) {
    this.perEndpoint = options.perEndpoint ?? 8;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.holdMs = options.holdMs ?? Math.max(120_000, 4 * this.timeoutMs);
    this.fetch = createGuardedFetch({ allowedHosts: options.allowedHosts, keepAliveSockets: this.perEndpoint });
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
    return this.loop.start();
  }

  wake(): void {
    this.loop.wake();
  }

  /** Takes no more, lets the requests in flight end (each has its deadline) and writes their results. */
  async stop(): Promise<void> {
    await this.loop.stop();
    await Promise.all([...this.sending]);
    await this.flushResults();
  }

  /** One claim; true when it found a full batch (more may be due). */
  async round(): Promise<boolean> {
    const busy = [...this.inFlight].filter(([, n]) => n >= this.perEndpoint).map(([id]) => id);
    const claimed = await queryRows<Claimed>(
      this.options.database.db,
      sql`with picked as (
            select d.id
              from notifications n
              cross join lateral (
                select d.id from notification_deliveries d
                 where d.notification_id = n.id and d.status = 'pending' and d.next_attempt_at <= now()
                 order by d.next_attempt_at, d.id
                 limit ${this.perEndpoint}
                 for update skip locked
              ) d
             where n.type = 'webhook' and not n.disabled
               and not (n.id = any(string_to_array(${busy.join(',')}, ',')::uuid[]))
             limit ${CLAIM_BATCH}
          )
          update notification_deliveries d
             set next_attempt_at = now() + ${this.holdMs} * interval '1 millisecond', attempts = d.attempts + 1
            from picked p, notifications n
           where d.id = p.id and n.id = d.notification_id
       returning d.id, d.notification_id, d.account_id, d.event_id, d.body, d.attempts, d.created_at,
                 n.destination, n.secret, n.previous_secret, n.previous_secret_until`,
    );
    if (claimed.length > 0) {
      const cipher = await this.secretCipher();
      for (const row of claimed) this.track(row, cipher);
    }
    return claimed.length >= CLAIM_BATCH;
  }

  private async secretCipher(): Promise<SecretCipher> {
    this.cipher ??= await webhookSecretCipher(this.options.secrets);
    return this.cipher;
  }

  private track(row: Claimed, cipher: SecretCipher): void {
    this.inFlight.set(row.notification_id, (this.inFlight.get(row.notification_id) ?? 0) + 1);
    const sent = this.send(row, cipher).finally(() => {
      const left = (this.inFlight.get(row.notification_id) ?? 1) - 1;
      if (left <= 0) this.inFlight.delete(row.notification_id);
      else this.inFlight.set(row.notification_id, left);
      this.sending.delete(sent);
      // A free place for this endpoint: its next deliveries may be due.
      this.loop.wake();
    });
    this.sending.add(sent);
  }

  /** The secrets that sign: the current one, and the rotated-out one during its overlap. */
  private secretsOf(row: Claimed, cipher: SecretCipher, at: Date): string[] {
    if (row.secret === null) return [];
    const secrets = [openWebhookSecret(cipher, row.notification_id, row.secret)];
    if (row.previous_secret !== null && row.previous_secret_until !== null && asDate(row.previous_secret_until) > at) {
      secrets.push(openWebhookSecret(cipher, row.notification_id, row.previous_secret));
    }
    return secrets;
  }

  private async send(row: Claimed, cipher: SecretCipher): Promise<void> {
    const at = new Date();
    const started = performance.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    let responseHead: string | null = null;
    try {
      const headers = { ...signWebhook(this.secretsOf(row, cipher, at), row.event_id, at, row.body), 'content-type': 'application/json', 'user-agent': USER_AGENT };
      const answer = await this.fetch(row.destination, {
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

  private scheduleFlush(): void {
    if (this.results.length >= RESULTS_BATCH) {
      void this.flushResults();
      return;
    }
    this.flushTimer ??= setTimeout(() => {
      void this.flushResults();
    }, RESULTS_FLUSH_MS);
  }

  /** Writes the results gathered so far, one batch after another. */
  private flushResults(): Promise<void> {
    if (this.flushTimer !== null) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    const batch = this.results;
    this.results = [];
    this.flushing = this.flushing.then(() => this.writeBatch(batch));
    return this.flushing;
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
