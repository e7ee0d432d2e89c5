import { and, eq, sql } from 'drizzle-orm';
import type { OutboxEventPayload } from '@parley/shared';
import type { Tx } from '../../platform/db/client.js';
import { notifications, type NotificationRow } from '../../platform/db/schema/index.js';
import { bulkUuidV7 } from '../contacts/index.js';
import type { EventSubscriber } from '../../platform/events/outboxDispatcher.js';
import { deliveryBody, eventIdOf } from './deliveryBody.js';
import { wantsEvent } from './deliveryMatch.js';
import { NOTIFIED_OUTBOX_TYPES, notificationTypeOf } from './eventTypes.js';
import { jsonRecords } from '../../platform/db/jsonRecords.js';

/**
 * One event's share of a round, as the INSERTs read it (json_to_recordset): the body once, the webhooks that
 * want it (one event row for them all) and the e-mail notifications (a delivery row each).
 */
interface EventDeliveries {
  account_id: string;
  event_id: string;
  event_type: string;
  body: string;
  created_at: string;
  webhooks: string[];
  targets: { id: string; notification_id: string }[];
}

/** Events one INSERT writes the deliveries of at most (a campaign round hands on thousands of status events). */
const INSERT_CHUNK = 1000;

/** What one dispatcher round gathered: the deliveries to write, and the notifications it read. */
interface Round {
  gathered: EventDeliveries[];
  notificationsOf: Map<string, NotificationRow[]>;
}

/**
 * The outbox subscriber of notifications: for each event, a delivery for every enabled notification of its
 * account that wants it (deliveryMatch.ts), written in the dispatcher's round, so an event is either
 * dispatched with its deliveries written or pending without them. A delivery is unique per notification and
 * event: an event handed on twice (a round that failed to commit) makes it once. The sender is woken after
 * the round commits. Each lane's dispatcher loop runs its rounds at the same time as the other's, each in a
 * transaction of its own, so what a round gathered is kept by its transaction: a round that failed leaves
 * its part behind with its transaction.
 */
export class NotificationFanout implements EventSubscriber {
  readonly name = 'notifications';
  readonly types = NOTIFIED_OUTBOX_TYPES;
  private readonly rounds = new WeakMap<Tx, Round>();
  private wrote = false;

  constructor(private readonly onWritten: () => void) {}

  async deliver(event: OutboxEventPayload, tx: Tx): Promise<void> {
    const type = notificationTypeOf(event.type);
    if (type === null || event.accountId === null) return;
    const round = this.roundOf(tx);
    const wanting = (await this.enabledOf(round, tx, event.accountId)).filter((n) => wantsEvent(n, { type, groupId: event.groupId, data: event.data }));
    if (wanting.length === 0) return;
    const now = Date.now();
    round.gathered.push({
      account_id: event.accountId,
      event_id: eventIdOf(event.id),
      event_type: type,
      body: deliveryBody(type, event.createdAt, event.accountId, event.data),
      created_at: event.createdAt,
      webhooks: wanting.filter((n) => n.type === 'webhook').map((n) => n.id),
      targets: wanting.filter((n) => n.type === 'email').map((notification) => ({ id: bulkUuidV7(now), notification_id: notification.id })),
    });
  }

  async beforeCommit(tx: Tx): Promise<void> {
    const rows = this.rounds.get(tx)?.gathered ?? [];
    this.rounds.delete(tx);
    const forWebhooks = rows.filter((r) => r.webhooks.length > 0);
    const accounts = [...new Set(forWebhooks.map((r) => r.account_id))].sort();
    // Held to the commit, so an account's event positions are in commit order: a webhook's cursor never passes
    // an event that becomes visible after it (the other lane's round may be writing the same account's).
    // Always in the same order, so two rounds never wait on each other's locks.
    for (const account of accounts) await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`notification_events:${account}`}, 0))`);
    // One JSON parameter a statement, each body in it once however many notifications want its event.
    for (let i = 0; i < forWebhooks.length; i += INSERT_CHUNK) {
      await tx.execute(sql`
        insert into notification_events (account_id, event_id, event_type, body, notification_ids, created_at)
        select e.account_id, e.event_id, e.event_type, e.body, array(select jsonb_array_elements_text(e.webhooks))::uuid[], e.created_at
          from json_to_recordset(${jsonRecords(forWebhooks.slice(i, i + INSERT_CHUNK))})
               as e(account_id uuid, event_id text, event_type text, body text, webhooks jsonb, created_at timestamptz)
        on conflict (account_id, event_id) do nothing`);
    }
    const forEmail = rows.filter((r) => r.targets.length > 0);
    for (let i = 0; i < forEmail.length; i += INSERT_CHUNK) {
      await tx.execute(sql`
        insert into notification_deliveries (id, account_id, notification_id, event_id, event_type, body)
        select t.id, e.account_id, t.notification_id, e.event_id, e.event_type, e.body
          from json_to_recordset(${jsonRecords(forEmail.slice(i, i + INSERT_CHUNK))})
               as e(account_id uuid, event_id text, event_type text, body text, targets jsonb)
          cross join lateral jsonb_to_recordset(e.targets) as t(id uuid, notification_id uuid)
        on conflict (notification_id, event_id) do nothing`);
    }
    if (rows.length > 0) this.wrote = true;
  }

  flush(): Promise<void> {
    if (this.wrote) {
      this.wrote = false;
      this.onWritten();
    }
    return Promise.resolve();
  }

  private roundOf(tx: Tx): Round {
    let round = this.rounds.get(tx);
    if (round === undefined) {
      round = { gathered: [], notificationsOf: new Map() };
      this.rounds.set(tx, round);
    }
    return round;
  }

  private async enabledOf(round: Round, tx: Tx, accountId: string): Promise<NotificationRow[]> {
    const known = round.notificationsOf.get(accountId);
    if (known !== undefined) return known;
    const rows = await tx
      .select()
      .from(notifications)
      .where(and(eq(notifications.accountId, accountId), eq(notifications.disabled, false)))
      .orderBy(sql`${notifications.createdAt}`);
    round.notificationsOf.set(accountId, rows);
    return rows;
  }
}
