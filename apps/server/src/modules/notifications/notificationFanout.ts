import { and, eq, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { OutboxEventPayload } from '@parley/shared';
import type { Tx } from '../../platform/db/client.js';
import { notificationDeliveries, notifications, type NotificationRow } from '../../platform/db/schema/index.js';
import type { EventSubscriber } from '../../platform/events/outboxDispatcher.js';
import { deliveryBody, eventIdOf } from './deliveryBody.js';
import { wantsEvent } from './deliveryMatch.js';
import { NOTIFIED_OUTBOX_TYPES, notificationTypeOf } from './eventTypes.js';

type NewDelivery = typeof notificationDeliveries.$inferInsert;

/** Rows one INSERT writes at most (a campaign round hands on hundreds of status events). */
const INSERT_CHUNK = 500;

/**
 * The outbox subscriber of notifications: for each event, a delivery for every enabled notification of its
 * account that wants it (deliveryMatch.ts), written in the dispatcher's round, so an event is either
 * dispatched with its deliveries written or pending without them. A delivery is unique per notification and
 * event: an event handed on twice (a round that failed to commit) makes it once. The sender is woken after
 * the round commits.
 */
export class NotificationFanout implements EventSubscriber {
  readonly name = 'notifications';
  readonly types = NOTIFIED_OUTBOX_TYPES;
  private gathered: NewDelivery[] = [];
  private notificationsOf = new Map<string, NotificationRow[]>();
  private round: Tx | null = null;
  private wrote = false;

  constructor(private readonly onWritten: () => void) {}

  async deliver(event: OutboxEventPayload, tx: Tx): Promise<void> {
    if (tx !== this.round) this.startRound(tx);
    const type = notificationTypeOf(event.type);
    if (type === null || event.accountId === null) return;
    const wanting = (await this.enabledOf(tx, event.accountId)).filter((n) => wantsEvent(n, { type, groupId: event.groupId, data: event.data }));
    if (wanting.length === 0) return;
    const body = deliveryBody(type, event.createdAt, event.accountId, event.data);
    const eventId = eventIdOf(event.id);
    for (const notification of wanting) {
      this.gathered.push({ id: uuidv7(), accountId: event.accountId, notificationId: notification.id, eventId, eventType: type, body });
    }
  }

  async beforeCommit(tx: Tx): Promise<void> {
    // What a round that failed gathered is not this round's: its events are still pending and come again.
    const rows = this.round === tx ? this.gathered : [];
    this.startRound(null);
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      await tx
        .insert(notificationDeliveries)
        .values(rows.slice(i, i + INSERT_CHUNK))
        .onConflictDoNothing({ target: [notificationDeliveries.notificationId, notificationDeliveries.eventId] });
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

  /** A new round forgets what an earlier one gathered or read (a round that failed left it behind). */
  private startRound(tx: Tx | null): void {
    this.round = tx;
    this.gathered = [];
    this.notificationsOf = new Map();
  }

  private async enabledOf(tx: Tx, accountId: string): Promise<NotificationRow[]> {
    const known = this.notificationsOf.get(accountId);
    if (known !== undefined) return known;
    const rows = await tx
      .select()
      .from(notifications)
      .where(and(eq(notifications.accountId, accountId), eq(notifications.disabled, false)))
      .orderBy(sql`${notifications.createdAt}`);
    this.notificationsOf.set(accountId, rows);
    return rows;
  }
}
