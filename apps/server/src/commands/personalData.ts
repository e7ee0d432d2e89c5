import { and, count, eq } from 'drizzle-orm';
import type { PrivacyRemoved } from '@parley/shared';
import type { ContactRecord } from '../contacts/queries.js';
import type { Queryable, Tx } from '../db/client.js';
import { contactLists, listMembers } from '../db/schema/index.js';

/** One value held about a contact, as a row of the privacy download. */
export interface PersonalDataRow {
  record: string;
  recordId: string;
  field: string;
  value: string;
}

/**
 * Everything Parley holds about one contact, kind by kind. This is the one place to extend when a table
 * comes to hold personal data of a contact (conversations and messages, with the messaging engine): add its
 * section here, its count to `holdingsOf` and its removal to `removeHoldings`, and the download, the search
 * summary and the removal all follow.
 */
interface Section {
  collect(record: ContactRecord, q: Queryable, accountId: string): Promise<PersonalDataRow[]> | PersonalDataRow[];
}

const iso = (d: Date | null): string => (d === null ? '' : d.toISOString());

const contactSection: Section = {
  collect({ contact: c }) {
    const fields: [string, string][] = [
      ['firstName', c.firstName],
      ['lastName', c.lastName],
      ['mobile', c.mobileNumber],
      ['country', c.mobileCountry],
      ['email', c.email ?? ''],
      ['valid', String(c.valid)],
      ['error', c.errorDescription ?? ''],
      ['blocked', iso(c.blockedAt)],
      ['optedOut', iso(c.optedOutAt)],
      ['numberType', c.numberType ?? ''],
      ['numberTypeChecked', iso(c.numberTypeCheckedAt)],
      ['created', iso(c.createdAt)],
      ['updated', iso(c.updatedAt)],
    ];
    return fields.map(([field, value]) => ({ record: 'contact', recordId: c.id, field, value }));
  },
};

const attributeSection: Section = {
  collect({ contact: c }) {
    return Object.entries(c.attributes)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([field, value]) => ({ record: 'attribute', recordId: c.id, field, value }));
  },
};

const tagSection: Section = {
  collect({ contact: c }) {
    return c.tags.map((tag) => ({ record: 'tag', recordId: c.id, field: 'tag', value: tag }));
  },
};

const listSection: Section = {
  async collect({ contact: c }, q, accountId) {
    const rows = await q
      .select({ member: listMembers, listName: contactLists.name })
      .from(listMembers)
      .innerJoin(contactLists, eq(contactLists.id, listMembers.listId))
      .where(and(eq(listMembers.accountId, accountId), eq(listMembers.contactId, c.id)))
      .orderBy(listMembers.createdAt, listMembers.id);
    return rows.flatMap(({ member: m, listName }) =>
      (
        [
          ['listId', m.listId],
          ['list', listName],
          ['status', m.status],
          ['optIn', iso(m.optInAt)],
          ['optOut', iso(m.optOutAt)],
          ['consentSource', m.consentSource ?? ''],
          ['added', iso(m.createdAt)],
        ] as const
      ).map(([field, value]) => ({ record: 'listMembership', recordId: m.id, field, value })),
    );
  },
};

const sections: readonly Section[] = [contactSection, attributeSection, tagSection, listSection];

export async function collectPersonalData(q: Queryable, accountId: string, record: ContactRecord): Promise<PersonalDataRow[]> {
  const rows: PersonalDataRow[] = [];
  for (const section of sections) rows.push(...(await section.collect(record, q, accountId)));
  return rows;
}

/** How much a removal would take with it besides the contact. */
export async function holdingsOf(
  q: Queryable,
  accountId: string,
  contactId: string,
): Promise<{ lists: number; conversations: number; messages: number }> {
  const [lists] = await q
    .select({ n: count() })
    .from(listMembers)
    .where(and(eq(listMembers.accountId, accountId), eq(listMembers.contactId, contactId)));
  // Conversations and messages are counted here once the messaging engine stores them.
  return { lists: lists?.n ?? 0, conversations: 0, messages: 0 };
}

/**
 * Removes what is tied to the contact and kept in tables that do not cascade from it, and answers the
 * counts of the removal result (the contact itself is counted by the caller). List memberships go with the
 * contact row (ON DELETE CASCADE). Messages and conversations are removed here once they exist.
 */
export function removeHoldings(_tx: Tx, _accountId: string, _contactId: string): Promise<Omit<PrivacyRemoved, 'contacts'>> {
  return Promise.resolve({ conversations: 0, messages: 0 });
}
