import type { Notification, NotificationDisabledReason, NotificationFilters } from '@parley/shared';

/** After how long of failing deliveries a webhook is disabled by itself (docs/notifications.md). */
export const FAILING_DAYS_BEFORE_DISABLED = 5;

const reasons: Record<NotificationDisabledReason, string> = {
  gone: 'The endpoint answered 410 Gone, so no more events go to it.',
  failing: `Every delivery failed for ${String(FAILING_DAYS_BEFORE_DISABLED)} days, so no more events go to it.`,
};

export interface NotificationState {
  label: 'Enabled' | 'Disabled';
  /** Why it was disabled by itself, when it was. */
  reason: string | null;
  /** That it is failing now, while still enabled. */
  warning: string | null;
}

const day = (iso: string): string => new Date(iso).toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });

/** What the Status column says of a notification. */
export function notificationState(notification: Notification): NotificationState {
  const reason = notification.disabledReason === undefined ? null : reasons[notification.disabledReason];
  const warning =
    notification.failingSince === undefined
      ? null
      : `Every delivery has failed since ${day(notification.failingSince)}; it is tried again, and disabled after ${String(FAILING_DAYS_BEFORE_DISABLED)} days of failing.`;
  return { label: notification.disabled ? 'Disabled' : 'Enabled', reason, warning };
}

export interface FilterNames {
  group: (id: string) => string;
  phoneNumber: (id: string) => string;
}

/** The filters one line each ("Groups: Sales", "Incoming only"), or that nothing narrows the events. */
export function filterLines(filters: NotificationFilters, names: FilterNames): string[] {
  const parts: string[] = [];
  if (filters.groups !== undefined && filters.groups.length > 0) parts.push(`Groups: ${filters.groups.map(names.group).join(', ')}`);
  if (filters.phoneNumbers !== undefined && filters.phoneNumbers.length > 0) {
    parts.push(`Numbers: ${filters.phoneNumbers.map(names.phoneNumber).join(', ')}`);
  }
  if (filters.statuses !== undefined && filters.statuses.length > 0) parts.push(`Statuses: ${filters.statuses.join(', ')}`);
  if (filters.direction !== undefined) parts.push(filters.direction === 'incoming' ? 'Incoming only' : 'Outgoing only');
  return parts.length > 0 ? parts : ['None'];
}
