import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { queryRows, type Database } from '../../platform/db/client.js';
import { NotifiedLoop } from '../../platform/db/notifiedLoop.js';
import type { Mailer } from '../../platform/mail/index.js';
import { accountAudience } from './accountAudience.js';
import type { TryResult } from './deliveryOutcome.js';
import { writeTryResults } from './deliveryResults.js';
import { digestLine } from './digestLines.js';
import { DIGEST_LINES_MAX, digestMail } from './notificationMails.js';

export interface EmailDigestOptions {
  database: Database;
  mailer: Mailer;
  publicUrl: string;
  log: Logger;
  /** A digest goes once no event has joined it for this long (10 s)... */
  quietMs?: number;
  /** ...or once its first event has waited this long (60 s), however busy the account is. */
  maxWaitMs?: number;
  pollIntervalMs?: number;
}

type Due = { id: string; account_id: string; destination: string };
type Held = { id: string; body: string; event_type: string; attempts: number; created_at: Date | string };

/** Deliveries one mail takes at most; more go in the next one. */
const DIGEST_MAX = 10_000;
const HOLD_MS = 5 * 60_000;
const asDate = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));

/**
 * Sends e-mail notifications as digests (docs/notifications.md, "E-mail"): once no event has joined a
 * notification's waiting ones for `quietMs`, or the first has waited `maxWaitMs`, every event it has waiting
 * goes in one mail (a campaign's 10,000 statuses are one mail), held while the mail is sent and marked
 * delivered after, or retried on the webhooks' schedule.
 */
export class EmailDigestSender {
  private readonly loop: NotifiedLoop;
  private readonly quietMs: number;
  private readonly maxWaitMs: number;

  constructor(private readonly options: EmailDigestOptions) {
    this.quietMs = options.quietMs ?? 10_000;
    this.maxWaitMs = options.maxWaitMs ?? 60_000;
    this.loop = new NotifiedLoop({
      database: options.database,
      channel: 'parley_notification_digests',
      pollIntervalMs: options.pollIntervalMs ?? 5_000,
      log: options.log,
      failure: 'e-mail digest round failed',
      round: () => this.round(),
    });
  }

  start(): Promise<void> {
    return this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Sends the digests that are due; true when one was cut at DIGEST_MAX (more wait). */
  async round(): Promise<boolean> {
    const due = await queryRows<Due>(
      this.options.database.db,
      sql`select n.id, n.account_id, n.destination
            from notifications n
            join lateral (select min(d.created_at) as first, max(d.created_at) as last
                            from notification_deliveries d
                           where d.notification_id = n.id and d.status = 'pending' and d.next_attempt_at <= now()) w on true
           where n.type = 'email' and not n.disabled
             and (w.last <= now() - ${this.quietMs} * interval '1 millisecond' or w.first <= now() - ${this.maxWaitMs} * interval '1 millisecond')`,
    );
    let more = false;
    for (const notification of due) more = (await this.sendDigest(notification)) || more;
    return more;
  }

  private async sendDigest(notification: Due): Promise<boolean> {
    const held = await queryRows<Held>(
      this.options.database.db,
      sql`with picked as (
            select id from notification_deliveries
             where notification_id = ${notification.id} and status = 'pending' and next_attempt_at <= now()
             order by created_at, id limit ${DIGEST_MAX} for update skip locked
          )
          update notification_deliveries d
             set next_attempt_at = now() + ${HOLD_MS} * interval '1 millisecond', attempts = d.attempts + 1
            from picked where d.id = picked.id
       returning d.id, d.body, d.event_type, d.attempts, d.created_at`,
    );
    if (held.length === 0) return false;
    const at = new Date();
    const started = performance.now();
    let error: string | null = null;
    try {
      const audience = await accountAudience(this.options.database.db, notification.account_id);
      const countsByType = new Map<string, number>();
      for (const row of held) countsByType.set(row.event_type, (countsByType.get(row.event_type) ?? 0) + 1);
      const newestFirst = [...held].sort((a, b) => asDate(b.created_at).getTime() - asDate(a.created_at).getTime());
      const lines = newestFirst.slice(0, DIGEST_LINES_MAX).map((row) => digestLine(row.body));
      const mail = digestMail({ accountName: audience.name, lines, total: held.length, countsByType, link: `${this.options.publicUrl}/notifications` });
      await this.options.mailer.send({ to: notification.destination, ...mail });
    } catch (caught) {
      error = caught instanceof Error ? caught.message : String(caught);
      this.options.log.warn({ err: caught, notificationId: notification.id }, 'e-mail digest could not be sent; will retry');
    }
    const durationMs = Math.round(performance.now() - started);
    const results: TryResult[] = held.map((row) => ({
      channel: 'email',
      deliveryId: row.id,
      notificationId: notification.id,
      accountId: notification.account_id,
      attempt: row.attempts,
      createdAt: asDate(row.created_at),
      at,
      durationMs,
      statusCode: null,
      error,
      responseHead: null,
      event: null,
    }));
    for (let i = 0; i < results.length; i += 1000) await writeTryResults(this.options.database.db, results.slice(i, i + 1000));
    return held.length >= DIGEST_MAX;
  }
}
