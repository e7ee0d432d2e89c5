import { and, asc, count, desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { NotificationDeliveryStatus } from '@parley/shared';
import type { Queryable } from '../../platform/db/client.js';
import { isUuid } from '../../platform/db/ids.js';
import {
  notificationAttempts,
  notificationDeliveries,
  notificationEvents,
  type NotificationAttemptRow,
  type NotificationDeliveryRow,
} from '../../platform/db/schema/index.js';

/** A delivery with the body it sends: its own, or its event row's (docs/notifications.md, "What a delivery writes"). */
export type DeliveryRecord = Omit<NotificationDeliveryRow, 'body'> & { body: string };

const withBody = {
  ...getTableColumns(notificationDeliveries),
  body: sql<string>`coalesce(${notificationDeliveries.body}, ${notificationEvents.body}, '')`,
};

export interface DeliveryWithLastTry {
  delivery: DeliveryRecord;
  last: NotificationAttemptRow | null;
}

/** A delivery's latest try, kept on its row (null before its first, and on rows written before it was kept there). */
function lastTryOnRow(d: DeliveryRecord | NotificationDeliveryRow): NotificationAttemptRow | null {
  if (d.lastAttemptAt === null || d.lastAttempt === null) return null;
  return {
    id: d.id,
    deliveryId: d.id,
    attempt: d.lastAttempt,
    at: d.lastAttemptAt,
    statusCode: d.lastStatusCode,
    durationMs: d.lastDurationMs ?? 0,
    error: d.lastError,
    responseHead: d.lastResponseHead,
  };
}

/** A notification's deliveries, newest first, each with its last try. */
export async function listDeliveries(
  q: Queryable,
  accountId: string,
  notificationId: string,
  page: { offset: number; limit: number; status?: NotificationDeliveryStatus },
): Promise<{ rows: DeliveryWithLastTry[]; totalCount: number }> {
  const where = and(
    eq(notificationDeliveries.accountId, accountId),
    eq(notificationDeliveries.notificationId, notificationId),
    page.status === undefined ? undefined : eq(notificationDeliveries.status, page.status),
  );
  const deliveries = await q
    .select(withBody)
    .from(notificationDeliveries)
    .leftJoin(notificationEvents, eq(notificationEvents.position, notificationDeliveries.eventPosition))
    .where(where)
    .orderBy(desc(notificationDeliveries.createdAt), desc(notificationDeliveries.id))
    .offset(page.offset)
    .limit(page.limit);
  const [total] = await q.select({ n: count() }).from(notificationDeliveries).where(where);
  // Older rows keep every try in notification_attempts only.
  const ids = deliveries.filter((d) => d.attempts > 0 && d.lastAttemptAt === null).map((d) => d.id);
  const lastTries =
    ids.length === 0
      ? []
      : await q
          .selectDistinctOn([notificationAttempts.deliveryId])
          .from(notificationAttempts)
          .where(inArray(notificationAttempts.deliveryId, ids))
          .orderBy(notificationAttempts.deliveryId, desc(notificationAttempts.attempt), desc(notificationAttempts.at));
  const last = new Map(lastTries.map((row) => [row.deliveryId, row]));
  return { rows: deliveries.map((delivery) => ({ delivery, last: lastTryOnRow(delivery) ?? last.get(delivery.id) ?? null })), totalCount: total?.n ?? 0 };
}

export async function findDelivery(q: Queryable, accountId: string, notificationId: string, id: string): Promise<DeliveryRecord | null> {
  if (!isUuid(id) || !isUuid(notificationId)) return null;
  const [row] = await q
    .select(withBody)
    .from(notificationDeliveries)
    .leftJoin(notificationEvents, eq(notificationEvents.position, notificationDeliveries.eventPosition))
    .where(and(eq(notificationDeliveries.accountId, accountId), eq(notificationDeliveries.notificationId, notificationId), eq(notificationDeliveries.id, id)));
  return row ?? null;
}

/** Every try at a delivery, oldest first: the earlier ones and late answers from their rows, the latest from the delivery's. */
export async function attemptsOf(q: Queryable, delivery: DeliveryRecord | NotificationDeliveryRow): Promise<NotificationAttemptRow[]> {
  const earlier = await q
    .select()
    .from(notificationAttempts)
    .where(eq(notificationAttempts.deliveryId, delivery.id))
    .orderBy(asc(notificationAttempts.at), asc(notificationAttempts.id));
  const last = lastTryOnRow(delivery);
  if (last === null) return earlier;
  return [...earlier, last].sort((a, b) => a.at.getTime() - b.at.getTime());
}
