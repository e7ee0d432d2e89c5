import { and, eq, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { NOTIFICATION_TEST_EVENT_TYPE, WEBHOOK_SECRET_OVERLAP_HOURS } from '@parley/shared';
import type { Db, Queryable } from '../../platform/db/client.js';
import { notificationDeliveries, notifications, type NotificationRow } from '../../platform/db/schema/index.js';
import { AppError, notFound } from '../../platform/errors.js';
import { NOTIFICATIONS_CHANNEL } from './channels.js';
import { deliveryBody } from './deliveryBody.js';
import { findDelivery, type DeliveryRecord } from './deliveryQueries.js';
import type { NotificationDeps } from './notificationManager.js';
import { findNotification } from './notificationQueries.js';
import { newWebhookSecret, sealWebhookSecret, webhookSecretCipher } from './webhookSecret.js';

const NOTIFICATION = 'The notification';
export const NOTIFICATION_DISABLED_MESSAGE = 'The notification is disabled: enable it to send to it';
export const SECRET_ONLY_FOR_WEBHOOKS_MESSAGE = 'Only a webhook has a signing secret';

/** Wakes the senders when the transaction commits. */
const wakeSenders = (q: Queryable) => q.execute(sql`select pg_notify(${NOTIFICATIONS_CHANNEL}, '')`);

async function enabledNotification(q: Queryable, accountId: string, id: string): Promise<NotificationRow> {
  const row = await findNotification(q, accountId, id);
  if (row === null) throw notFound(NOTIFICATION);
  if (row.disabled) throw new AppError(409, 'conflict', NOTIFICATION_DISABLED_MESSAGE);
  return row;
}

/** Sends a delivery again now, with the same event id (docs/notifications.md, "The delivery log"). */
export function resendDelivery(db: Db, accountId: string, notificationId: string, deliveryId: string): Promise<DeliveryRecord> {
  return db.transaction(async (tx) => {
    await enabledNotification(tx, accountId, notificationId);
    const found = await findDelivery(tx, accountId, notificationId, deliveryId);
    if (found === null) throw notFound('The delivery');
    const [row] = await tx
      .update(notificationDeliveries)
      .set({ status: 'pending', nextAttemptAt: sql`now()`, deliveredAt: null })
      .where(and(eq(notificationDeliveries.accountId, accountId), eq(notificationDeliveries.id, found.id)))
      .returning();
    if (!row) throw notFound('The delivery');
    await wakeSenders(tx);
    return { ...row, body: found.body };
  });
}

/** "Send test event": a delivery of its own (type webhook-test) to this notification only. */
export function sendTestEvent(db: Db, accountId: string, notificationId: string): Promise<DeliveryRecord> {
  return db.transaction(async (tx) => {
    const notification = await enabledNotification(tx, accountId, notificationId);
    const id = uuidv7();
    const at = new Date().toISOString();
    const body = deliveryBody(NOTIFICATION_TEST_EVENT_TYPE, at, accountId, { test: true, notification: { id: notification.id } });
    const [row] = await tx
      .insert(notificationDeliveries)
      .values({
        id,
        accountId,
        notificationId: notification.id,
        eventId: `evt_test_${id.replaceAll('-', '')}`,
        eventType: NOTIFICATION_TEST_EVENT_TYPE,
        body,
      })
      .returning();
    if (!row) throw new Error('the test delivery was not written');
    await wakeSenders(tx);
    return { ...row, body };
  });
}

/**
 * A new signing secret for a webhook, answered once; the one it replaces keeps signing beside it for
 * WEBHOOK_SECRET_OVERLAP_HOURS, so receivers can change over without missing a request.
 */
export function rotateWebhookSecret(deps: NotificationDeps, accountId: string, id: string): Promise<{ secret: string; previousValidUntil: Date }> {
  return deps.db.transaction(async (tx) => {
    const row = await findNotification(tx, accountId, id);
    if (row === null) throw notFound(NOTIFICATION);
    if (row.type !== 'webhook' || row.secret === null) throw new AppError(400, 'validation_failed', SECRET_ONLY_FOR_WEBHOOKS_MESSAGE);
    const secret = newWebhookSecret();
    const previousValidUntil = new Date(Date.now() + WEBHOOK_SECRET_OVERLAP_HOURS * 3_600_000);
    await tx
      .update(notifications)
      .set({
        secret: sealWebhookSecret(await webhookSecretCipher(deps.secrets), row.id, secret),
        previousSecret: row.secret,
        previousSecretUntil: previousValidUntil,
        updatedAt: sql`now()`,
      })
      .where(and(eq(notifications.accountId, accountId), eq(notifications.id, row.id)));
    return { secret, previousValidUntil };
  });
}
