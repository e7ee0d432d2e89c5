import { NOTIFICATION_DESTINATION_TAKEN_MESSAGE } from '@parley/shared';
import type { ApiError } from '../../api/client';
import { fieldOfPath, type NotificationFormField } from './notificationForm';

export interface SaveErrors {
  /** Messages to show on their fields. */
  fields: Partial<Record<NotificationFormField, string>>;
  /** What belongs to no field: shown under the form. */
  form: string | null;
}

// The API joins validation messages with '; ' and starts each with its path ("destination: ...",
// "filters.groups.0: Not a group id"); a message may itself hold '; ', so only a '; ' before a path splits.
const bodyKeys = ['type', 'destination', 'eventTypes', 'filters', 'disabled'];
const parts = new RegExp(`; (?=(?:${bodyKeys.join('|')})[.:])`);
const pathOf = /^([\w.]+): /;

/**
 * Where the server's answer to a save belongs: validation messages (400, a refused webhook address among
 * them) on their fields, a destination already taken (409) on Destination, anything else under the form.
 */
export function saveErrorsOf(error: ApiError): SaveErrors {
  if (error.status === 409 && error.message === NOTIFICATION_DESTINATION_TAKEN_MESSAGE) {
    return { fields: { destination: error.message }, form: null };
  }
  if (error.status !== 400) return { fields: {}, form: error.message };
  const fields: Partial<Record<NotificationFormField, string>> = {};
  const rest: string[] = [];
  for (const part of error.message.split(parts)) {
    const path = pathOf.exec(part)?.[1];
    const field = path === undefined ? null : fieldOfPath(path.split('.'));
    if (field === null || path === undefined) rest.push(part);
    else fields[field] ??= part.slice(path.length + 2);
  }
  return { fields, form: rest.length > 0 ? rest.join('; ') : null };
}
