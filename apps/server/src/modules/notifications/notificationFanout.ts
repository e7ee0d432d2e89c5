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

/** What one dispatcher round gathered: the deliveries to write, and the notifications it read. */
interface Round {
  gathered: NewDelivery[];
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
    const body = deliveryBody(type, event.createdAt, event.accountId, event.data);
    const eventId = eventIdOf(event.id);
    for (const notification of wanting) {
      round.gathered.push({ id: uuidv7(), accountId: event.accountId, notificationId: notification.id, eventId, eventType: type, body });
    }
  }

  async beforeCommit(tx: Tx): Promise<void> {
    const rows = this.rounds.get(tx)?.gathered ?? [];
    this.rounds.delete(tx);
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
