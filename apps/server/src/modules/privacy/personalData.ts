import { and, asc, count, eq } from 'drizzle-orm';
import type { PrivacyRemoved } from '@parley/shared';
import type { ContactRecord } from '../contacts/index.js';
import type { Queryable, Tx } from '../../platform/db/client.js';
import { contactLists, conversations, listMembers, messages, phoneNumbers } from '../../platform/db/schema/index.js';
import { messagingHoldingsOf, removeMessagingHoldings } from './personalDataMessages.js';

/** One value held about a contact, as a row of the privacy download. */
export interface PersonalDataRow {
  record: string;
  recordId: string;
  field: string;
  value: string;
}

/**
 * Everything Parley holds about one contact, kind by kind. This is the one place to extend when a table
 * comes to hold personal data of a contact: add its section here, its count to `holdingsOf` and its removal
 * to `removeHoldings`, and the download, the search summary and the removal all follow.
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

const conversationSection: Section = {
  async collect({ contact: c }, q, accountId) {
    const rows = await q
      .select({ conversation: conversations, number: phoneNumbers.number })
      .from(conversations)
      .leftJoin(phoneNumbers, eq(phoneNumbers.id, conversations.phoneNumberId))
      .where(and(eq(conversations.accountId, accountId), eq(conversations.contactId, c.id)))
      .orderBy(asc(conversations.createdAt), asc(conversations.id));
    return rows.flatMap(({ conversation: v, number }) =>
      (
        [
          ['phoneNumber', number ?? ''],
          ['started', iso(v.createdAt)],
          ['closed', iso(v.closedAt)],
        ] as const
      ).map(([field, value]) => ({ record: 'conversation', recordId: v.id, field, value })),
    );
  },
};

const messageSection: Section = {
  async collect({ contact: c }, q, accountId) {
    const rows = await q
      .select()
      .from(messages)
      .where(and(eq(messages.accountId, accountId), eq(messages.contactId, c.id)))
      .orderBy(asc(messages.createdAt), asc(messages.id));
    return rows.flatMap((m) =>
      (
        [
          ['conversationId', m.conversationId],
          ['direction', m.direction],
          ['from', m.fromNumber],
          ['to', m.toNumber],
          ['text', m.body],
          ...m.media.map((media) => ['media', media.url] as const),
          ['status', m.status],
          ['error', m.errorDescription ?? ''],
          ['created', iso(m.createdAt)],
          ['sent', iso(m.sentAt)],
          ['read', iso(m.readAt)],
        ] as const
      ).map(([field, value]) => ({ record: 'message', recordId: m.id, field, value })),
    );
  },
};

const sections: readonly Section[] = [contactSection, attributeSection, tagSection, listSection, conversationSection, messageSection];

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
  return { lists: lists?.n ?? 0, ...(await messagingHoldingsOf(q, accountId, contactId)) };
}

/**
 * Removes what is tied to the contact before the contact row goes, and answers the counts of the removal
 * result (the contact itself is counted by the caller). List memberships go with the contact row (ON DELETE
 * CASCADE); conversations and messages, in every status, are removed and counted here
 * (personalDataMessages.ts), so what is counted is what is removed.
 */
export function removeHoldings(tx: Tx, accountId: string, contact: { id: string; mobileNumber: string }): Promise<Omit<PrivacyRemoved, 'contacts'>> {
  return removeMessagingHoldings(tx, accountId, contact);
}
