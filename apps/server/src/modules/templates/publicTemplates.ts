import { and, eq } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client.js';
import { accounts, templates, type TemplateRow, type TemplateType } from '../../platform/db/schema/index.js';
import { isUuid } from '../../platform/db/ids.js';

/** A template reached from outside the app (its opt-in page or web-hook link), with what its account shows. */
export interface PublicTemplate {
  template: TemplateRow;
  account: {
    id: string;
    name: string;
    defaultCountry: string;
    /** accounts.support as stored (keywords.ts `supportDetails` reads it). */
    support: unknown;
  };
}

/**
 * The template of this id and type in an open account, or null: an unknown or malformed id, a template of
 * another type and a closed account look the same from outside.
 */
export async function findPublicTemplate(q: Queryable, templateId: string, type: TemplateType): Promise<PublicTemplate | null> {
  if (!isUuid(templateId)) return null;
  const [row] = await q
    .select({
      template: templates,
      account: { id: accounts.id, name: accounts.name, defaultCountry: accounts.defaultCountry, support: accounts.support },
    })
    .from(templates)
    .innerJoin(accounts, eq(accounts.id, templates.accountId))
    .where(and(eq(templates.id, templateId), eq(templates.type, type), eq(accounts.status, 'active')))
    .limit(1);
  return row ?? null;
}
