import {
  saveNotificationSchema,
  type Notification,
  type NotificationFilters,
  type NotificationType,
  type SaveNotification,
} from '@parley/shared';
import type { Control, FieldErrors, Resolver } from 'react-hook-form';
import { eventTypesOf, flagsOf, noFlags, type EventFlags } from './eventTypes';

export type DirectionChoice = 'any' | 'incoming' | 'outgoing';

/** The notification dialog's fields; the event types as flags, the filters one field each. */
export interface NotificationFormValues {
  type: NotificationType;
  destination: string;
  events: EventFlags;
  groups: string[];
  phoneNumbers: string[];
  /** For message-status only: sent only while that flag is on. */
  statuses: string[];
  direction: DirectionChoice;
  enabled: boolean;
}
/** The form's control: its fields, and the body the resolver makes of them. */
export type NotificationControl = Control<NotificationFormValues, unknown, SaveNotification>;
export type NotificationFormField = Exclude<keyof NotificationFormValues, 'type' | 'enabled'>;

/** The statuses a message-status event may carry, offered by the form (a message's after it was queued). */
export const notificationStatusChoices = ['sent', 'delivered', 'undelivered', 'failed'] as const;

export const NO_EVENT_TYPES_MESSAGE = 'Choose at least one event';

export const formDefaults = (notification: Notification | null): NotificationFormValues => ({
  type: notification?.type ?? 'webhook',
  destination: notification?.destination ?? '',
  events: notification === null ? noFlags() : flagsOf(notification.eventTypes),
  groups: notification?.filters.groups ?? [],
  phoneNumbers: notification?.filters.phoneNumbers ?? [],
  statuses: notification?.filters.statuses ?? [],
  direction: notification?.filters.direction ?? 'any',
  enabled: notification === null ? true : !notification.disabled,
});

/** The filters sent: each list only when it narrows something, statuses only with message-status. */
function filtersOf(values: NotificationFormValues): NotificationFilters {
  const filters: NotificationFilters = {};
  if (values.groups.length > 0) filters.groups = values.groups;
  if (values.phoneNumbers.length > 0) filters.phoneNumbers = values.phoneNumbers;
  if (values.events.messageStatus && values.statuses.length > 0) filters.statuses = values.statuses;
  if (values.direction !== 'any') filters.direction = values.direction;
  return filters;
}

/** The body of POST or PUT .../notifications, before the shared schema checks it. */
export const bodyOf = (values: NotificationFormValues) => ({
  type: values.type,
  destination: values.destination,
  eventTypes: eventTypesOf(values.events),
  filters: filtersOf(values),
  disabled: !values.enabled,
});

const filterFields = ['groups', 'phoneNumbers', 'statuses', 'direction'] as const;
const isFilterField = (key: PropertyKey | undefined): key is (typeof filterFields)[number] => filterFields.some((field) => field === key);

/** The form field a path of the API's body belongs to ('filters.groups.0' → groups), or null. */
export function fieldOfPath(path: readonly PropertyKey[]): NotificationFormField | null {
  const [head, next] = path;
  if (head === 'destination') return 'destination';
  if (head === 'eventTypes') return 'events';
  if (head !== 'filters') return null;
  return isFilterField(next) ? next : null;
}

export type FormCheck =
  | { ok: true; body: SaveNotification }
  | { ok: false; fields: Partial<Record<NotificationFormField, string>>; form: string | null };

/**
 * Checks the form with the API's own schema (the destination as an e-mail address or an http(s) URL by type,
 * with its messages) and asks for at least one event; each message lands on its field, the first one wins.
 */
export function checkNotificationForm(values: NotificationFormValues): FormCheck {
  const parsed = saveNotificationSchema.safeParse(bodyOf(values));
  const fields: Partial<Record<NotificationFormField, string>> = {};
  const rest: string[] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = fieldOfPath(issue.path);
      if (field === null) rest.push(issue.message);
      else fields[field] ??= issue.message;
    }
  }
  if (eventTypesOf(values.events).length === 0) fields.events ??= NO_EVENT_TYPES_MESSAGE;
  if (parsed.success && Object.keys(fields).length === 0) return { ok: true, body: parsed.data };
  return { ok: false, fields, form: rest.length > 0 ? rest.join('; ') : null };
}

/** react-hook-form's resolver: the checked body to submit, or the messages on their fields. */
export const notificationResolver: Resolver<NotificationFormValues, unknown, SaveNotification> = (values) => {
  const check = checkNotificationForm(values);
  if (check.ok) return { values: check.body, errors: {} };
  const errors: FieldErrors<NotificationFormValues> = {};
  for (const [field, message] of Object.entries(check.fields)) {
    errors[field as NotificationFormField] = { type: 'validate', message };
  }
  // What names no field (not expected: the form makes every other part of the body) shows under the form.
  if (check.form !== null) errors.root = { form: { type: 'validate', message: check.form } };
  return { values: {}, errors };
};
