import { and, eq } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client.js';
import { integrationContacts } from '../../platform/db/schema/index.js';

type LinkKind = (typeof integrationContacts.$inferSelect)['kind'];

/** The provider's id a sync linked to a Parley contact (one per account, kind and contact), or null. */
export async function linkedExternalId(q: Queryable, ref: { accountId: string; kind: LinkKind; contactId: string }): Promise<string | null> {
  const [link] = await q
    .select({ externalId: integrationContacts.externalId })
    .from(integrationContacts)
    .where(and(eq(integrationContacts.accountId, ref.accountId), eq(integrationContacts.kind, ref.kind), eq(integrationContacts.contactId, ref.contactId)))
    .limit(1);
  return link?.externalId ?? null;
}
