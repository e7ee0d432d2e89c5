import { and, asc, count, eq, like } from 'drizzle-orm';
import type { NotificationType } from '@parley/shared';
import type { Queryable } from '../../platform/db/client.js';
import { isUuid } from '../../platform/db/ids.js';
import { notifications, type NotificationRow } from '../../platform/db/schema/index.js';

export async function listNotifications(
  q: Queryable,
  accountId: string,
  page: { offset: number; limit: number; type?: NotificationType },
): Promise<{ rows: NotificationRow[]; totalCount: number }> {
  const where = and(eq(notifications.accountId, accountId), page.type === undefined ? undefined : eq(notifications.type, page.type));
  const rows = await q.select().from(notifications).where(where).orderBy(asc(notifications.createdAt), asc(notifications.id)).offset(page.offset).limit(page.limit);
  const [total] = await q.select({ n: count() }).from(notifications).where(where);
  return { rows, totalCount: total?.n ?? 0 };
}

export async function findNotification(q: Queryable, accountId: string, id: string): Promise<NotificationRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await q.select().from(notifications).where(and(eq(notifications.accountId, accountId), eq(notifications.id, id)));
  return row ?? null;
}

export async function findByDestination(q: Queryable, accountId: string, type: NotificationType, destination: string): Promise<NotificationRow | null> {
  const [row] = await q
    .select()
    .from(notifications)
    .where(and(eq(notifications.accountId, accountId), eq(notifications.type, type), eq(notifications.destination, destination)));
  return row ?? null;
}

export async function countNotifications(q: Queryable, accountId: string): Promise<number> {
  const [total] = await q.select({ n: count() }).from(notifications).where(eq(notifications.accountId, accountId));
  return total?.n ?? 0;
}

/**
 * The account's webhook endpoints that are on, or only those under `prefix` (an origin and path start, with
 * no `%` or `_`): what the Webhooks and Zapier integration pages count as connected.
 */
export async function countEnabledWebhooks(q: Queryable, accountId: string, prefix?: string): Promise<number> {
  const [total] = await q
    .select({ n: count() })
    .from(notifications)
    .where(
      and(
        eq(notifications.accountId, accountId),
        eq(notifications.type, 'webhook'),
        eq(notifications.disabled, false),
        prefix === undefined ? undefined : like(notifications.destination, `${prefix}%`),
      ),
    );
  return total?.n ?? 0;
}
