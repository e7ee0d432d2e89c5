import { and, count, desc, eq, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { MessageListQuery } from '@parley/shared';
import type { Queryable } from '../../platform/db/client.js';
import { messages, type MessageRow } from '../../platform/db/schema/index.js';
import { visibleMessageCondition, type ConversationViewer } from './conversationVisibility.js';
import { isUuid } from '../../platform/db/ids.js';
import { runPrepared } from '../../platform/db/preparedStatements.js';
import { decodeCursor, encodeCursor, KEY_TEXT, keysetAfter, keysetSortText, type KeysetOrder } from '../../platform/db/keyset.js';

/** The WHERE of the messages list: the account, the conversations the viewer sees, then each filter given. */
function conditions(accountId: string, viewer: ConversationViewer, query: MessageListQuery): SQL {
  const parts: (SQL | undefined)[] = [eq(messages.accountId, accountId), visibleMessageCondition(viewer, messages.conversationId)];
  if (query.conversationId !== undefined) parts.push(eq(messages.conversationId, query.conversationId));
  if (query.contactId !== undefined) parts.push(eq(messages.contactId, query.contactId));
  if (query.jobId !== undefined) parts.push(eq(messages.jobId, query.jobId));
  if (query.incoming !== undefined) parts.push(query.incoming ? eq(messages.direction, 'inbound') : sql`${messages.direction} <> 'inbound'`);
  if (query.outgoing !== undefined) parts.push(query.outgoing ? eq(messages.direction, 'outbound') : sql`${messages.direction} <> 'outbound'`);
  if (query.errors !== undefined) {
    const failed = or(sql`${messages.status} in ('failed', 'undelivered')`, isNotNull(messages.errorDescription));
    parts.push(query.errors ? failed : and(sql`${messages.status} not in ('failed', 'undelivered')`, isNull(messages.errorDescription)));
  }
  return and(...parts) ?? sql`false`;
}

/** Newest first; ids are UUIDv7, so they break ties in time order. */
const newestFirst: KeysetOrder = {
  key: sql`${messages.createdAt}`,
  type: sql.raw('timestamptz'),
  keyText: KEY_TEXT.timestamptz,
  direction: 'desc',
  id: messages.id,
};
const CURSOR_SCOPE = 'messages';

/**
 * A page of the account's messages the viewer sees, newest first. With `after` (the `next` of an earlier
 * page) it starts after that message by keyset, so the millionth message is as quick to reach as the first.
 */
export async function listMessages(
  q: Queryable,
  accountId: string,
  viewer: ConversationViewer,
  query: MessageListQuery,
): Promise<{ rows: MessageRow[]; totalCount: number; next?: string }> {
  const where = conditions(accountId, viewer, query);
  const position = query.after === undefined ? null : decodeCursor(CURSOR_SCOPE, newestFirst, query.after);
  const [total] = await runPrepared('messages_count', q.select({ n: count() }).from(messages).where(where));
  const found = await runPrepared(
    'messages_page',
    q
      .select({ row: messages, sortText: keysetSortText(newestFirst) })
      .from(messages)
      .where(position === null ? where : and(where, keysetAfter(newestFirst, position)))
      .orderBy(desc(messages.createdAt), desc(messages.id))
      .limit(query.limit)
      .offset(position === null ? query.offset : 0),
  );
  const rows = found.map((f) => f.row);
  const last = found.at(-1);
  const totalCount = total?.n ?? 0;
  const atEnd = found.length < query.limit || (position === null && query.offset + found.length >= totalCount);
  if (last === undefined || atEnd) return { rows, totalCount };
  return { rows, totalCount, next: encodeCursor(CURSOR_SCOPE, { key: last.sortText, id: last.row.id }) };
}

/** One message of the account the viewer sees, or null (a malformed id, or a hidden conversation's, is simply not found). */
export async function findMessage(q: Queryable, accountId: string, viewer: ConversationViewer, id: string): Promise<MessageRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await q
    .select()
    .from(messages)
    .where(and(eq(messages.accountId, accountId), eq(messages.id, id), visibleMessageCondition(viewer, messages.conversationId)))
    .limit(1);
  return row ?? null;
}
