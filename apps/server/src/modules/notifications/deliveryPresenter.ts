import { NOTIFICATION_TEST_EVENT_TYPE, notificationEventTypes, type NotificationAttempt, type NotificationDelivery } from '@parley/shared';
import type { NotificationAttemptRow } from '../../platform/db/schema/index.js';
import type { DeliveryRecord } from './deliveryQueries.js';

export function presentAttempt(row: NotificationAttemptRow): NotificationAttempt {
  return {
    attempt: row.attempt,
    at: row.at.toISOString(),
    ...(row.statusCode === null ? {} : { statusCode: row.statusCode }),
    durationMs: row.durationMs,
    ...(row.error === null ? {} : { error: row.error }),
    ...(row.responseHead === null ? {} : { responseHead: row.responseHead }),
  };
}

const eventTypeOf = (type: string): NotificationDelivery['eventType'] =>
  notificationEventTypes.find((t) => t === type) ?? NOTIFICATION_TEST_EVENT_TYPE;

export function presentDelivery(row: DeliveryRecord, last: NotificationAttemptRow | null): NotificationDelivery {
  return {
    id: row.id,
    eventId: row.eventId,
    eventType: eventTypeOf(row.eventType),
    status: row.status,
    attempts: row.attempts,
    body: row.body,
    created: { at: row.createdAt.toISOString() },
    ...(row.status === 'pending' ? { nextAttemptAt: row.nextAttemptAt.toISOString() } : {}),
    ...(row.deliveredAt === null ? {} : { deliveredAt: row.deliveredAt.toISOString() }),
    ...(last === null ? {} : { lastAttempt: presentAttempt(last) }),
  };
}
