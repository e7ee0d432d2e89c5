import { and, count, desc, eq } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client.js';
import { isUuid } from '../../platform/db/ids.js';
import { calls, conversations, type CallRow } from '../../platform/db/schema/index.js';
import { visibleGroupCondition, type ConversationViewer } from '../messaging/index.js';

/**
 * The calls of one conversation the viewer sees, newest first; null when the conversation is not theirs to
 * see (another account's, a malformed id, another group's), as GET conversations/{id} answers.
 */
export async function listConversationCalls(
  q: Queryable,
  accountId: string,
  viewer: ConversationViewer,
  conversationId: string,
  page: { offset: number; limit: number },
): Promise<{ rows: CallRow[]; totalCount: number } | null> {
  if (!isUuid(conversationId)) return null;
  const [seen] = await q
    .select({ id: conversations.id })
    .from(conversations)
    .where(and(eq(conversations.accountId, accountId), eq(conversations.id, conversationId), visibleGroupCondition(viewer, conversations.groupId)));
  if (seen === undefined) return null;
  const where = and(eq(calls.accountId, accountId), eq(calls.conversationId, conversationId));
  const rows = await q.select().from(calls).where(where).orderBy(desc(calls.startedAt), desc(calls.id)).offset(page.offset).limit(page.limit);
  const [total] = await q.select({ n: count() }).from(calls).where(where);
  return { rows, totalCount: total?.n ?? 0 };
}
