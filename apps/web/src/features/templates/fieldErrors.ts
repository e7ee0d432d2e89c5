import { saveTemplateFields } from '@parley/shared';
import type { ApiError } from '../../api/client';

export type TemplateFormField = (typeof saveTemplateFields)[number];

export interface SaveErrors {
  /** Messages to show on their fields. */
  fields: Partial<Record<TemplateFormField, string>>;
  /** What belongs to no field: shown under the form. */
  form: string | null;
}

// The API joins validation messages with '; ' and starts each with its path ("template: Unknown token ...",
// "media.0.url: ..."); a message may itself hold '; ', so only a '; ' before a field's path splits.
const parts = new RegExp(`; (?=(?:${saveTemplateFields.join('|')})[.:])`);
const fieldOf = (part: string): TemplateFormField | undefined =>
  saveTemplateFields.find((name) => part.startsWith(`${name}: `) || part.startsWith(`${name}.`));

/** Where the server's answer to a save belongs: validation messages (400) on their fields, the rest under the form. */
export function saveErrorsOf(error: ApiError): SaveErrors {
  if (error.status !== 400) return { fields: {}, form: error.message };
  const fields: Partial<Record<TemplateFormField, string>> = {};
  const rest: string[] = [];
  for (const part of error.message.split(parts)) {
    const field = fieldOf(part);
    if (field === undefined) rest.push(part);
    else fields[field] ??= part.slice(part.indexOf(': ') + 2);
  }
  return { fields, form: rest.length > 0 ? rest.join('; ') : null };
}
