import { notificationEventTypes, type Notification, type WebhookSubscription } from '@parley/shared';
import type { NotificationRow } from '../../platform/db/schema/index.js';
import type { SavedNotification } from './notificationManager.js';

/** Event types in the one order the page and the API show them, whatever order they were sent in. */
const inOrder = (types: readonly string[]) => notificationEventTypes.filter((type) => types.includes(type));

export function presentNotification(row: NotificationRow, secret?: string): Notification {
  return {
    id: row.id,
    type: row.type,
    destination: row.destination,
    eventTypes: inOrder(row.eventTypes),
    filters: row.filters,
    disabled: row.disabled,
    ...(row.disabled && row.disabledReason !== null ? { disabledReason: row.disabledReason } : {}),
    ...(row.failingSince === null ? {} : { failingSince: row.failingSince.toISOString() }),
    ...(secret === undefined ? {} : { secret }),
    created: { at: row.createdAt.toISOString() },
    updated: { at: row.updatedAt.toISOString() },
  };
}

export const presentSaved = ({ row, secret }: SavedNotification): Notification => presentNotification(row, secret);

export function presentWebhookSubscription({ row, secret }: SavedNotification): WebhookSubscription {
  return { url: row.destination, eventTypes: inOrder(row.eventTypes), ...(secret === undefined ? {} : { secret }) };
}
