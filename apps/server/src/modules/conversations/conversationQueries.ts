import { and, desc, eq, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { ConversationListQuery } from '@parley/shared';
import { contactConditions } from '../contacts/index.js';
import type { Queryable } from '../../platform/db/client.js';
import { contactGroups, contacts, conversations, messages, phoneNumbers, type MessageRow } from '../../platform/db/schema/index.js';
import { seesEveryGroup, visibleGroupCondition, type ConversationViewer } from '../messaging/index.js';
import { isUuid } from '../../platform/db/ids.js';
import { accountRowCount } from '../../platform/db/rowCounts.js';
import { runPrepared } from '../../platform/db/preparedStatements.js';

/** A conversation with what the list shows of it: its contact, number, group and last message. */
export interface ConversationRecord {
  id: string;
  createdAt: Date;
  updatedAt: Date;
  closedAt: Date | null;
  contact: {
    id: string;
    firstName: string;
    lastName: string;
    mobileNumber: string;
    mobileCountry: string;
    blockedAt: Date | null;
    optedOutAt: Date | null;
  };
  phoneNumber: { id: string; number: string } | null;
  group: { id: string; name: string } | null;
  lastMessage: Pick<
    MessageRow,
    'id' | 'body' | 'templateId' | 'status' | 'errorCode' | 'errorDescription' | 'direction' | 'media' | 'createdAt'
  > | null;
}

const lastMessage = alias(messages, 'last_message');

const selection = {
  id: conversations.id,
  createdAt: conversations.createdAt,
  updatedAt: conversations.updatedAt,
  closedAt: conversations.closedAt,
  contact: {
    id: contacts.id,
    firstName: contacts.firstName,
    lastName: contacts.lastName,
    mobileNumber: contacts.mobileNumber,
    mobileCountry: contacts.mobileCountry,
    blockedAt: contacts.blockedAt,
    optedOutAt: contacts.optedOutAt,
  },
  phoneNumber: { id: phoneNumbers.id, number: phoneNumbers.number },
  group: { id: contactGroups.id, name: contactGroups.name },
  lastMessage: {
    id: lastMessage.id,
    body: lastMessage.body,
    templateId: lastMessage.templateId,
    status: lastMessage.status,
    errorCode: lastMessage.errorCode,
    errorDescription: lastMessage.errorDescription,
    direction: lastMessage.direction,
    media: lastMessage.media,
    createdAt: lastMessage.createdAt,
  },
};

/**
 * docs/inbox.md, Unread: unread is an incoming message, or an outgoing one that failed, nobody marked read. Written with
 * literals exactly as messages_unread_idx's predicate, so the planner uses that index. `m` is the alias.
 */
export const unreadPredicate = (m: string): SQL =>
  sql.raw(`${m}.read_at is null and (${m}.direction = 'inbound' or ${m}.status in ('failed', 'undelivered'))`);

/** "The conversation has an unread message", for a query on conversations. */
const hasUnread = (accountId: string): SQL =>
  sql`exists (select 1 from messages um where um.account_id = ${accountId} and um.conversation_id = ${conversations.id}
        and ${unreadPredicate('um')})`;

// Newest activity first: the last message, or the opening of a conversation that has none yet.
const activity = sql`coalesce(${conversations.lastMessageAt}, ${conversations.createdAt})`;

/** The conversations query with its joins; `where` always names the account. */
function selectConversationRows(q: Queryable, where: SQL | undefined) {
  return q
    .select(selection)
    .from(conversations)
    .innerJoin(contacts, eq(contacts.id, conversations.contactId))
    .leftJoin(phoneNumbers, eq(phoneNumbers.id, conversations.phoneNumberId))
    .leftJoin(contactGroups, eq(contactGroups.id, conversations.groupId))
    .leftJoin(lastMessage, eq(lastMessage.id, conversations.lastMessageId))
    .where(where);
}

/** The same with the total of its rows (a window count), for a list that filters. */
function selectConversations(q: Queryable, where: SQL | undefined) {
  return q
    .select({ ...selection, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(conversations)
    .innerJoin(contacts, eq(contacts.id, conversations.contactId))
    .leftJoin(phoneNumbers, eq(phoneNumbers.id, conversations.phoneNumberId))
    .leftJoin(contactGroups, eq(contactGroups.id, conversations.groupId))
    .leftJoin(lastMessage, eq(lastMessage.id, conversations.lastMessageId))
    .where(where);
}

function listConditions(accountId: string, viewer: ConversationViewer, query: ConversationListQuery): SQL | undefined {
  return and(
    eq(conversations.accountId, accountId),
    query.closed ? isNotNull(conversations.closedAt) : isNull(conversations.closedAt),
    visibleGroupCondition(viewer, conversations.groupId),
    query.unread ? hasUnread(accountId) : undefined,
    query.contactId === undefined ? undefined : eq(conversations.contactId, query.contactId),
    query.q === undefined || query.q === '' ? undefined : contactConditions(accountId, { q: query.q }),
  );
}

const withoutTotal = ({ total: _total, ...record }: ConversationRecord & { total: number }): ConversationRecord => record;

/**
 * The account's kept count answers for a list narrowed only by open or closed, as everyone who sees every
 * group lists it (platform/db/rowCounts.ts); any other filter counts its rows.
 */
const keptCountAnswers = (viewer: ConversationViewer, query: ConversationListQuery): boolean =>
  seesEveryGroup(viewer) && !query.unread && query.contactId === undefined && (query.q === undefined || query.q === '');

/**
 * A page of the conversations the viewer sees, newest activity first, with the total: the account's kept
 * count when nothing else narrows the list, else in the same statement (a window count), where only a page
 * past the end needs a second statement for the total.
 */
export async function listConversations(
  q: Queryable,
  accountId: string,
  viewer: ConversationViewer,
  query: ConversationListQuery,
): Promise<{ records: ConversationRecord[]; totalCount: number }> {
  const where = listConditions(accountId, viewer, query);
  const order = [desc(activity), desc(conversations.id)];
  if (keptCountAnswers(viewer, query)) {
    // The page's ids first, in the order's index (conversations_open_activity_idx): an offset then skips
    // index entries, not rows joined to their contact, number, group and last message.
    const page = q
      .select({ pageId: sql<string>`${conversations.id}`.as('page_id') })
      .from(conversations)
      .where(where)
      .orderBy(...order)
      .limit(query.limit)
      .offset(query.offset)
      .as('page');
    const records = await runPrepared(
      'conversations_page',
      q
        .select(selection)
        .from(page)
        .innerJoin(conversations, eq(conversations.id, page.pageId))
        .innerJoin(contacts, eq(contacts.id, conversations.contactId))
        .leftJoin(phoneNumbers, eq(phoneNumbers.id, conversations.phoneNumberId))
        .leftJoin(contactGroups, eq(contactGroups.id, conversations.groupId))
        .leftJoin(lastMessage, eq(lastMessage.id, conversations.lastMessageId))
        .orderBy(...order),
    );
    const totalCount = await accountRowCount(q, accountId, query.closed ? 'closedConversations' : 'openConversations');
    return { records, totalCount };
  }
  const rows = await selectConversations(q, where)
    .orderBy(...order)
    .limit(query.limit)
    .offset(query.offset);
  const [first] = rows;
  if (first !== undefined) return { records: rows.map(withoutTotal), totalCount: first.total };
  if (query.offset === 0) return { records: [], totalCount: 0 };
  const [counted] = await q
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(conversations)
    .innerJoin(contacts, eq(contacts.id, conversations.contactId))
    .where(where);
  return { records: [], totalCount: counted?.n ?? 0 };
}

/** One conversation of the account the viewer sees, or null (a malformed id, another account's, a hidden one). */
export async function findConversation(
  q: Queryable,
  accountId: string,
  viewer: ConversationViewer,
  id: string,
): Promise<ConversationRecord | null> {
  if (!isUuid(id)) return null;
  const [row] = await runPrepared(
    'conversation',
    selectConversationRows(
      q,
      and(eq(conversations.accountId, accountId), eq(conversations.id, id), visibleGroupCondition(viewer, conversations.groupId)),
    ).limit(1),
  );
  return row ?? null;
}

/** The unread message ids of each conversation, oldest first (messages_unread_idx answers it). */
export async function unreadIdsOf(q: Queryable, accountId: string, conversationIds: readonly string[]): Promise<Map<string, string[]>> {
  const byConversation = new Map<string, string[]>(conversationIds.map((id) => [id, []]));
  if (conversationIds.length === 0) return byConversation;
  // The ids as one array parameter: a page of any length is the same statement.
  const rows = await runPrepared(
    'unread_ids',
    q
      .select({ conversationId: messages.conversationId, id: messages.id })
      .from(messages)
      .where(
        and(
          eq(messages.accountId, accountId),
          sql`${messages.conversationId} = any(${sql.param([...conversationIds])}::uuid[])`,
          unreadPredicate('"messages"'),
        ),
      )
      .orderBy(messages.createdAt, messages.id),
  );
  for (const row of rows) byConversation.get(row.conversationId)?.push(row.id);
  return byConversation;
}

/** How many open conversations the viewer sees have unread messages (the side menu's badge). */
export async function countUnreadConversations(q: Queryable, accountId: string, viewer: ConversationViewer): Promise<number> {
  const [row] = await q
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(conversations)
    .where(
      and(
        eq(conversations.accountId, accountId),
        isNull(conversations.closedAt),
        visibleGroupCondition(viewer, conversations.groupId),
        hasUnread(accountId),
      ),
    );
  return row?.n ?? 0;
}
