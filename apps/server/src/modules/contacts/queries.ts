import { and, asc, desc, eq, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import type { AttributeFilter, ContactListQuery, ContactOrderBy, ContactSortColumn, SortDirection } from '@parley/shared';
import { isVisibleTag } from '@parley/shared';
import { queryRows, type Queryable } from '../../platform/db/client.js';
import { accountAttributes, contactImports, contacts, listMembers, type ContactRow, type ListMemberRow } from '../../platform/db/schema/index.js';
import { isUuid } from '../../platform/db/ids.js';
import { accountRowCount } from '../../platform/db/rowCounts.js';
import { runPrepared } from '../../platform/db/preparedStatements.js';
import { decodeCursor, encodeCursor, KEY_TEXT, keysetAfter, keysetSortText, type KeysetOrder, type KeysetPosition } from '../../platform/db/keyset.js';
import { contactImportColumns, type ContactImportRecord } from './import/presenter.js';

/** A contact with its list memberships, as the presenter needs it. */
export interface ContactRecord {
  contact: ContactRow;
  lists: ListMemberRow[];
}

/** The filters of the table (and of the CSV download); paging and sort are separate. */
export type ContactFilters = Pick<
  ContactListQuery,
  'q' | 'firstName' | 'lastName' | 'mobile' | 'email' | 'tags' | 'valid' | 'blocked' | 'attribute' | 'listId'
>;

/** `%text%` for ILIKE, with the pattern characters of the text taken literally. */
const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** People type numbers with spaces, dashes, dots and brackets; stored numbers have none. */
const numberSearchText = (text: string): string => text.replace(/[\s().-]/g, '');

function attributeCondition(filter: AttributeFilter): SQL {
  const value = sql`(${contacts.attributes} ->> ${filter.attribute})`;
  switch (filter.comparator) {
    case 'equals':
      return sql`lower(${value}) = lower(${filter.value})`;
    case 'notEquals':
      // A contact without the attribute does not equal the value.
      return sql`lower(coalesce(${value}, '')) <> lower(${filter.value})`;
    case 'contains':
      return sql`${value} ilike ${containsPattern(filter.value)}`;
  }
}

/**
 * The WHERE of a contact query: always the account, then every filter given. Text filters match anywhere
 * in the field ignoring case; tags must all be present (the GIN index answers `@>`); attribute comparisons
 * ignore case. Also used by other features that select contacts the way the table does.
 */
export function contactConditions(accountId: string, filters: Partial<ContactFilters>): SQL {
  const parts: SQL[] = [sql`${contacts.accountId} = ${accountId}`];
  if (filters.firstName !== undefined) parts.push(sql`${contacts.firstName} ilike ${containsPattern(filters.firstName)}`);
  if (filters.lastName !== undefined) parts.push(sql`${contacts.lastName} ilike ${containsPattern(filters.lastName)}`);
  if (filters.email !== undefined) parts.push(sql`${contacts.email} ilike ${containsPattern(filters.email)}`);
  if (filters.mobile !== undefined) {
    parts.push(sql`${contacts.mobileNumber} ilike ${containsPattern(numberSearchText(filters.mobile))}`);
  }
  if (filters.tags !== undefined && filters.tags.length > 0) {
    parts.push(sql`${contacts.tags} @> array[${sql.join(
      filters.tags.map((t) => sql`${t}`),
      sql`, `,
    )}]::text[]`);
  }
  if (filters.valid !== undefined) parts.push(sql`${contacts.valid} = ${filters.valid}`);
  if (filters.blocked !== undefined) {
    parts.push(filters.blocked ? sql`${contacts.blockedAt} is not null` : sql`${contacts.blockedAt} is null`);
  }
  for (const filter of filters.attribute ?? []) parts.push(attributeCondition(filter));
  if (filters.listId !== undefined) {
    parts.push(
      sql`exists (select 1 from ${listMembers} where ${listMembers.contactId} = ${contacts.id}
            and ${listMembers.listId} = ${filters.listId} and ${listMembers.accountId} = ${accountId})`,
    );
  }
  if (filters.q !== undefined) {
    const pattern = containsPattern(filters.q);
    const alternatives: SQL[] = [
      sql`(${contacts.firstName} || ' ' || ${contacts.lastName}) ilike ${pattern}`,
      sql`${contacts.email} ilike ${pattern}`,
      sql`${contacts.mobileNumber} ilike ${containsPattern(numberSearchText(filters.q))}`,
    ];
    parts.push(sql`(${sql.join(alternatives, sql` or `)})`);
  }
  return sql.join(parts, sql` and `);
}

/**
 * The ids of the account's contacts that carry every tag and meet every attribute comparison (the
 * table's rules), oldest first, at most `limit`: the contacts a send's `filters` name.
 */
export async function contactIdsMatching(
  q: Queryable,
  accountId: string,
  filters: { tags: readonly string[]; attributes: readonly AttributeFilter[] },
  limit: number,
): Promise<string[]> {
  const where = contactConditions(accountId, { tags: [...filters.tags], attribute: [...filters.attributes] });
  const rows = await q.select({ id: contacts.id }).from(contacts).where(where).orderBy(asc(contacts.id)).limit(limit);
  return rows.map((row) => row.id);
}

/**
 * What each sortable column sorts by, never null, so the same expression can page a download by keyset:
 * names ignore case, a missing e-mail or block sorts before any other.
 */
const text = { type: sql.raw('text'), keyText: KEY_TEXT.text };
const instant = { type: sql.raw('timestamptz'), keyText: KEY_TEXT.timestamptz };
const sortKeys: Record<ContactSortColumn, Omit<KeysetOrder, 'direction' | 'id'>> = {
  firstName: { key: sql`lower(${contacts.firstName})`, ...text },
  lastName: { key: sql`lower(${contacts.lastName})`, ...text },
  mobile: { key: sql`${contacts.mobileNumber}`, ...text },
  email: { key: sql`coalesce(lower(${contacts.email}), '')`, ...text },
  valid: { key: sql`${contacts.valid}`, type: sql.raw('boolean'), keyText: KEY_TEXT.boolean },
  blocked: { key: sql`coalesce(${contacts.blockedAt}, '-infinity'::timestamptz)`, ...instant },
  created: { key: sql`${contacts.createdAt}`, ...instant },
  updated: { key: sql`${contacts.updatedAt}`, ...instant },
};

/** The keyset order of a sort: its column's key, then the id, both in its direction. */
function keysetOrder(orderBy: ContactOrderBy): KeysetOrder {
  const [column, direction] = orderBy.split('-') as [ContactSortColumn, SortDirection];
  return { ...sortKeys[column], direction, id: contacts.id };
}

function orderClause(orderBy: ContactOrderBy): SQL {
  const order = keysetOrder(orderBy);
  const dir = sql.raw(order.direction);
  // The id breaks ties, so pages never repeat or skip a contact among equals.
  return sql`${order.key} ${dir}, ${contacts.id} ${dir}`;
}

/** A cursor of the contacts list is bound to its order: one of another order would skip or repeat rows. */
const cursorScope = (orderBy: ContactOrderBy): string => `contacts:${orderBy}`;

/** The memberships of the given contacts, by contact id. */
export async function listsOf(q: Queryable, accountId: string, contactIds: readonly string[]): Promise<Map<string, ListMemberRow[]>> {
  const byContact = new Map<string, ListMemberRow[]>();
  if (contactIds.length === 0) return byContact;
  const rows = await q
    .select()
    .from(listMembers)
    .where(and(eq(listMembers.accountId, accountId), inArray(listMembers.contactId, [...contactIds])))
    .orderBy(asc(listMembers.createdAt), asc(listMembers.id));
  for (const row of rows) {
    const list = byContact.get(row.contactId) ?? [];
    list.push(row);
    byContact.set(row.contactId, list);
  }
  return byContact;
}

async function withLists(q: Queryable, accountId: string, rows: ContactRow[]): Promise<ContactRecord[]> {
  const lists = await listsOf(
    q,
    accountId,
    rows.map((r) => r.id),
  );
  return rows.map((contact) => ({ contact, lists: lists.get(contact.id) ?? [] }));
}

const listMemberColumns = Object.entries(getTableColumns(listMembers));

/**
 * The contact's memberships as one JSON column of the contact's own statement (a page is one statement,
 * not one more for its lists), in the order listsOf gives them. The contact's id is written qualified: in a
 * query of `contacts` alone the builder leaves columns bare, and a bare "id" here would be the membership's.
 */
const listsColumn = (accountId: string) =>
  sql<ListMemberRow[]>`coalesce((select json_agg(lm order by lm.created_at, lm.id) from ${listMembers} lm
     where lm.account_id = ${accountId} and lm.contact_id = "contacts"."id"), '[]'::json)`.mapWith((value: unknown) =>
    (value as Record<string, unknown>[]).map(
      (json) =>
        Object.fromEntries(
          listMemberColumns.map(([key, column]) => {
            const raw = json[column.name];
            return [key, raw === null || raw === undefined ? null : column.mapFromDriverValue(raw)];
          }),
        ) as ListMemberRow,
    ),
  );

const FILTER_KEYS = ['q', 'firstName', 'lastName', 'mobile', 'email', 'tags', 'valid', 'blocked', 'attribute', 'listId'] as const;

/** Whether the query narrows the account's contacts at all (an empty tag or attribute list does not). */
const isFiltered = (filters: Partial<ContactFilters>): boolean =>
  FILTER_KEYS.some((key) => {
    const value = filters[key];
    return Array.isArray(value) ? value.length > 0 : value !== undefined;
  });

/** How many contacts the filters match: the account's kept count when nothing narrows them. */
async function countContacts(q: Queryable, accountId: string, filters: ContactFilters, where: SQL): Promise<number> {
  if (!isFiltered(filters)) return accountRowCount(q, accountId, 'contacts');
  const [total] = await q.select({ n: sql<number>`count(*)::int` }).from(contacts).where(where);
  return total?.n ?? 0;
}

/**
 * One page of the table: the rows of the filters in the order asked, and how many match in all. With
 * `after` (a cursor of an earlier page) the page starts after that row, found by keyset rather than by an
 * offset; `next` is the cursor of this page's last row when the page is full.
 */
export async function listContacts(
  q: Queryable,
  accountId: string,
  query: ContactFilters & { offset: number; limit: number; orderBy: ContactOrderBy; after?: string | undefined },
): Promise<{ records: ContactRecord[]; totalCount: number; next?: string }> {
  const order = keysetOrder(query.orderBy);
  const where = contactConditions(accountId, query);
  const position = query.after === undefined ? null : decodeCursor(cursorScope(query.orderBy), order, query.after);
  const totalCount = await countContacts(q, accountId, query, where);
  // The page's ids first, from the order's index (an offset skips index entries, not rows), then the
  // rows and their lists for those alone.
  const page = q
    .select({ pageId: sql<string>`${contacts.id}`.as('page_id') })
    .from(contacts)
    .where(position === null ? where : and(where, keysetAfter(order, position)))
    .orderBy(orderClause(query.orderBy))
    .limit(query.limit)
    .offset(position === null ? query.offset : 0)
    .as('page');
  const rows = await runPrepared(
    'contacts_page',
    q
      .select({ row: contacts, sortText: keysetSortText(order), lists: listsColumn(accountId) })
      .from(page)
      .innerJoin(contacts, eq(contacts.id, page.pageId))
      .orderBy(orderClause(query.orderBy)),
  );
  const records = rows.map((r) => ({ contact: r.row, lists: r.lists }));
  const last = rows.at(-1);
  const atEnd = rows.length < query.limit || (position === null && query.offset + rows.length >= totalCount);
  if (last === undefined || atEnd) return { records, totalCount };
  return { records, totalCount, next: encodeCursor(cursorScope(query.orderBy), { key: last.sortText, id: last.row.id }) };
}

/**
 * Every contact of the filters in the order asked, in batches paged by keyset (sort key, id): a download
 * of 100,000 contacts costs the same per batch at the end as at the start, and a contact added or removed
 * meanwhile never shifts the others. `columns` is the select list of each row (raw SQL over `contacts`),
 * so a caller reads only what it needs, as text where it writes text.
 */
export async function* contactRowsByKeyset<T extends Record<string, unknown>>(
  q: Queryable,
  accountId: string,
  query: ContactFilters & { orderBy: ContactOrderBy },
  columns: SQL,
  batchSize = 2000,
): AsyncGenerator<T[]> {
  const order = keysetOrder(query.orderBy);
  const where = contactConditions(accountId, query);
  let after: KeysetPosition | null = null;
  for (;;) {
    const keyset: SQL = after === null ? sql`` : sql`and ${keysetAfter(order, after)}`;
    const rows = await queryRows<T & { keyset_sort: string; keyset_id: string }>(
      q,
      sql`select ${columns}, ${keysetSortText(order)} as keyset_sort, ${contacts.id}::text as keyset_id
            from ${contacts}
           where ${where} ${keyset}
           order by ${orderClause(query.orderBy)}
           limit ${batchSize}`,
    );
    if (rows.length === 0) return;
    yield rows;
    const last = rows[rows.length - 1];
    if (last === undefined || rows.length < batchSize) return;
    after = { key: last.keyset_sort, id: last.keyset_id };
  }
}

/** A contact of the account with its lists; null for an unknown id, a malformed one or another account's. */
export async function findContact(q: Queryable, accountId: string, id: string): Promise<ContactRecord | null> {
  if (!isUuid(id)) return null;
  const [row] = await runPrepared(
    'contact',
    q
      .select({ contact: contacts, lists: listsColumn(accountId) })
      .from(contacts)
      .where(and(eq(contacts.accountId, accountId), eq(contacts.id, id)))
      .limit(1),
  );
  return row ?? null;
}

/** The contact of the account holding this (stored) mobile number, if any. */
export async function findContactByMobile(q: Queryable, accountId: string, mobileNumber: string): Promise<ContactRow | null> {
  const [row] = await q
    .select()
    .from(contacts)
    .where(and(eq(contacts.accountId, accountId), eq(contacts.mobileNumber, mobileNumber)))
    .limit(1);
  return row ?? null;
}

/** The contacts of the account holding these (stored) mobile numbers, with their lists, in the order given. */
export async function findContactsByMobile(q: Queryable, accountId: string, mobileNumbers: readonly string[]): Promise<ContactRecord[]> {
  if (mobileNumbers.length === 0) return [];
  const rows = await q
    .select()
    .from(contacts)
    .where(and(eq(contacts.accountId, accountId), inArray(contacts.mobileNumber, [...mobileNumbers])));
  const byNumber = new Map(rows.map((row) => [row.mobileNumber, row]));
  const ordered = mobileNumbers.flatMap((n) => byNumber.get(n) ?? []);
  return withLists(q, accountId, ordered);
}

/** Which of these (stored) mobile numbers the account's contacts already hold. */
export async function heldMobileNumbers(q: Queryable, accountId: string, mobileNumbers: readonly string[]): Promise<Set<string>> {
  if (mobileNumbers.length === 0) return new Set();
  const rows = await q
    .select({ mobileNumber: contacts.mobileNumber })
    .from(contacts)
    .where(and(eq(contacts.accountId, accountId), inArray(contacts.mobileNumber, [...mobileNumbers])));
  return new Set(rows.map((row) => row.mobileNumber));
}

/**
 * The account's tags with how many contacts carry each, the most used first (then by name); with a prefix,
 * only tags starting with it (ignoring case). System tags (see isVisibleTag) are left out unless the prefix
 * itself starts with an underscore.
 */
export async function listAccountTags(
  q: Queryable,
  accountId: string,
  options: { prefix?: string | undefined; limit: number },
): Promise<{ tag: string; visible: boolean; contacts: number }[]> {
  const prefix = options.prefix ?? '';
  const rows = await queryRows<{ tag: string; contacts: number }>(
    q,
    sql`select t.tag, count(*)::int as contacts
          from ${contacts}, unnest(${contacts.tags}) as t(tag)
         where ${contacts.accountId} = ${accountId}
           ${prefix === '' ? sql`` : sql`and t.tag ilike ${`${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`}
           ${prefix.startsWith('_') ? sql`` : sql`and t.tag not like '\\_%'`}
         group by t.tag
         order by count(*) desc, t.tag asc
         limit ${options.limit}`,
  );
  return rows.map((r) => ({ tag: r.tag, visible: isVisibleTag(r.tag), contacts: r.contacts }));
}

/** The names of the account's custom attributes, sorted ignoring case. */
export async function listAttributeNames(q: Queryable, accountId: string): Promise<string[]> {
  const rows = await q
    .select({ name: accountAttributes.name })
    .from(accountAttributes)
    .where(eq(accountAttributes.accountId, accountId))
    .orderBy(sql`lower(${accountAttributes.name})`, asc(accountAttributes.name));
  return rows.map((r) => r.name);
}

/** One page of the account's contact imports, newest first (without their files), and how many it has in all. */
export async function listContactImports(
  q: Queryable,
  accountId: string,
  page: { offset: number; limit: number },
): Promise<{ rows: ContactImportRecord[]; totalCount: number }> {
  const where = eq(contactImports.accountId, accountId);
  const rows = await q
    .select(contactImportColumns)
    .from(contactImports)
    .where(where)
    .orderBy(desc(contactImports.createdAt), desc(contactImports.id))
    .limit(page.limit)
    .offset(page.offset);
  const [count] = await q.select({ n: sql<number>`count(*)::int` }).from(contactImports).where(where);
  return { rows, totalCount: count?.n ?? 0 };
}

/** A contact import of the account, without its file; null for an unknown id, a malformed one or another account's. */
export async function findContactImport(q: Queryable, accountId: string, id: string): Promise<ContactImportRecord | null> {
  if (!isUuid(id)) return null;
  const [row] = await q
    .select(contactImportColumns)
    .from(contactImports)
    .where(and(eq(contactImports.accountId, accountId), eq(contactImports.id, id)))
    .limit(1);
  return row ?? null;
}
