import { AUTO_RESPONDER_MATCH_TAKEN_MESSAGE } from '@parley/shared';
import { ApiError } from '../../api/client';

export const autoResponderFields = ['match', 'response', 'advanced'] as const;
export type AutoResponderField = (typeof autoResponderFields)[number];

export interface SaveErrors {
  /** Messages to show on their fields. */
  fields: Partial<Record<AutoResponderField, string>>;
  /** What belongs to no field: shown under the form. */
  form: string | null;
}

// The API joins validation messages with '; ' and starts each with its field ("match: Invalid regular
// expression: ..."); a message may itself hold '; ', so only a '; ' before a field name splits.
const parts = new RegExp(`; (?=(?:${autoResponderFields.join('|')}): )`);

/**
 * Where the server's answer to a save belongs: a validation message (400) on its fields (an Advanced
 * match the server cannot compile lands on Match), the taken match (409) on Match, anything else under
 * the form.
 */
export function saveErrorsOf(error: ApiError): SaveErrors {
  if (error.status === 409 && error.message === AUTO_RESPONDER_MATCH_TAKEN_MESSAGE) {
    return { fields: { match: error.message }, form: null };
  }
  if (error.status !== 400) return { fields: {}, form: error.message };
  const fields: Partial<Record<AutoResponderField, string>> = {};
  const rest: string[] = [];
  for (const part of error.message.split(parts)) {
    const field = autoResponderFields.find((name) => part.startsWith(`${name}: `));
    if (field === undefined) rest.push(part);
    else fields[field] ??= part.slice(field.length + 2);
  }
  return { fields, form: rest.length > 0 ? rest.join('; ') : null };
}
