import type { Template, TemplateField, TemplateSelection } from '@parley/shared';
import { withoutNulls } from '../../platform/http/withoutNulls.js';
import type { TemplateWithList } from './templateManager.js';

/** The template as the API answers it; a template without a list has no `optInList` (left out, not null). */
export function presentTemplate({ template: row, listName }: TemplateWithList): Template {
  return withoutNulls({
    id: row.id,
    name: row.name,
    type: row.type,
    template: row.template,
    media: row.media.map(({ url, type, filename }) => ({ url, type, filename })),
    private: row.private,
    optInList: row.optInListId === null ? null : { id: row.optInListId, name: listName ?? '' },
    created: { at: row.createdAt.toISOString() },
    updated: { at: row.updatedAt.toISOString() },
  });
}

/** The template trimmed to the fields a list call asked for (`fields=`), its id always included. */
export function presentTemplateFields(row: TemplateWithList, fields: readonly TemplateField[] | undefined): TemplateSelection {
  const whole = presentTemplate(row);
  if (fields === undefined || fields.length === 0) return whole;
  const picked: TemplateSelection = { id: whole.id };
  for (const field of fields) if (whole[field] !== undefined) Object.assign(picked, { [field]: whole[field] });
  return picked;
}
