import { and, count, desc, eq, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { MessageListQuery } from '@parley/shared';
import type { Queryable } from '../../platform/db/client.js';
import { messages, type MessageRow } from '../../platform/db/schema/index.js';
import { visibleMessageCondition, type ConversationViewer } from './conversationVisibility.js';
import { isUuid } from '../../platform/db/ids.js';

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

/** A page of the account's messages the viewer sees, newest first (ids are UUIDv7, so they break ties in time order). */
export async function listMessages(
  q: Queryable,
  accountId: string,
  viewer: ConversationViewer,
  query: MessageListQuery,
): Promise<{ rows: MessageRow[]; totalCount: number }> {
  const where = conditions(accountId, viewer, query);
  const [total] = await q.select({ n: count() }).from(messages).where(where);
  const rows = await q
    .select()
    .from(messages)
    .where(where)
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(query.limit)
    .offset(query.offset);
  return { rows, totalCount: total?.n ?? 0 };
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
