import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import type { ListMemberQuery, ListQuery } from '@parley/shared';
import type { Queryable } from '../../platform/db/client.js';
import { contactLists, contacts, listMembers, type ContactListRow, type ListMemberRow } from '../../platform/db/schema/index.js';
import { isUuid } from '../../platform/db/ids.js';

export interface ListWithCount {
  list: ContactListRow;
  memberCount: number;
}

export interface MemberWithContact {
  member: ListMemberRow;
  contact: {
    id: string;
    firstName: string;
    lastName: string;
    mobileNumber: string;
    mobileCountry: string;
    email: string | null;
    valid: boolean;
  };
}


// Written out in full: in a one-table select Drizzle leaves column names unqualified, which the subquery would misread.
const memberCount = sql<number>`(select count(*)::int from "list_members" where "list_members"."list_id" = "contact_lists"."id")`;

/** One list of the account with its member count; null when it is not the account's. */
export async function findList(q: Queryable, accountId: string, listId: string): Promise<ListWithCount | null> {
  if (!isUuid(listId)) return null;
  const [row] = await q
    .select({ list: contactLists, memberCount })
    .from(contactLists)
    .where(and(eq(contactLists.accountId, accountId), eq(contactLists.id, listId)))
    .limit(1);
  return row ?? null;
}

/** The account's lists by name (ignoring case), with their member counts. */
export async function listLists(
  q: Queryable,
  accountId: string,
  page: ListQuery,
): Promise<{ rows: ListWithCount[]; totalCount: number }> {
  const where = eq(contactLists.accountId, accountId);
  const [total] = await q.select({ n: count() }).from(contactLists).where(where);
  const rows = await q
    .select({ list: contactLists, memberCount })
    .from(contactLists)
    .where(where)
    .orderBy(asc(sql`lower(${contactLists.name})`), asc(contactLists.id))
    .limit(page.limit)
    .offset(page.offset);
  return { rows, totalCount: total?.n ?? 0 };
}

/** Is another list of the account already called this (ignoring case)? */
export async function listNameTaken(q: Queryable, accountId: string, name: string, exceptId?: string): Promise<boolean> {
  const rows = await q
    .select({ id: contactLists.id })
    .from(contactLists)
    .where(and(eq(contactLists.accountId, accountId), sql`lower(${contactLists.name}) = lower(${name})`));
  return rows.some((r) => r.id !== exceptId);
}

const contactColumns = {
  id: contacts.id,
  firstName: contacts.firstName,
  lastName: contacts.lastName,
  mobileNumber: contacts.mobileNumber,
  mobileCountry: contacts.mobileCountry,
  email: contacts.email,
  valid: contacts.valid,
};

/** The members of a list (already checked to be the account's), newest first. */
export async function listMembersOf(
  q: Queryable,
  accountId: string,
  listId: string,
  query: ListMemberQuery,
): Promise<{ rows: MemberWithContact[]; totalCount: number }> {
  const where = and(
    eq(listMembers.accountId, accountId),
    eq(listMembers.listId, listId),
    query.status === undefined ? undefined : eq(listMembers.status, query.status),
  );
  const [total] = await q.select({ n: count() }).from(listMembers).where(where);
  const rows = await q
    .select({ member: listMembers, contact: contactColumns })
    .from(listMembers)
    .innerJoin(contacts, eq(contacts.id, listMembers.contactId))
    .where(where)
    .orderBy(desc(listMembers.createdAt), desc(listMembers.id))
    .limit(query.limit)
    .offset(query.offset);
  return { rows, totalCount: total?.n ?? 0 };
}

/** One member of a list by its contact id; null when the contact is not on that list of the account. */
export async function findMember(
  q: Queryable,
  accountId: string,
  listId: string,
  contactId: string,
): Promise<MemberWithContact | null> {
  if (!isUuid(listId) || !isUuid(contactId)) return null;
  const [row] = await q
    .select({ member: listMembers, contact: contactColumns })
    .from(listMembers)
    .innerJoin(contacts, eq(contacts.id, listMembers.contactId))
    .where(and(eq(listMembers.accountId, accountId), eq(listMembers.listId, listId), eq(listMembers.contactId, contactId)))
    .limit(1);
  return row ?? null;
}
