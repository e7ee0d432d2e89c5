import type { Conversation, ListQuery } from '@parley/shared';
import type { Queryable } from '../../platform/db/client.js';
import type { ConversationViewer } from '../messaging/index.js';
import { presentConversation } from './conversationPresenter.js';
import { listMessages } from '../messaging/index.js';
import { findConversation, unreadIdsOf, type ConversationRecord } from './conversationQueries.js';

/** Conversations of a page with their unread ids: one more statement for the whole page. */
export async function presentConversations(q: Queryable, accountId: string, records: readonly ConversationRecord[]): Promise<Conversation[]> {
  const unread = await unreadIdsOf(
    q,
    accountId,
    records.map((r) => r.id),
  );
  return records.map((record) => presentConversation(record, unread.get(record.id) ?? []));
}

/**
 * One conversation the viewer sees, as the API shows it, or null; with `messagesPage`, the page of its
 * messages (newest first) too.
 */
export async function loadConversation(
  q: Queryable,
  accountId: string,
  viewer: ConversationViewer,
  id: string,
  messagesPage?: ListQuery,
): Promise<Conversation | null> {
  const record = await findConversation(q, accountId, viewer, id);
  if (record === null) return null;
  const unread = (await unreadIdsOf(q, accountId, [record.id])).get(record.id) ?? [];
  if (messagesPage === undefined) return presentConversation(record, unread);
  const { rows, totalCount } = await listMessages(q, accountId, viewer, { ...messagesPage, conversationId: record.id });
  return presentConversation(record, unread, {
    rows,
    pagination: { totalCount, offset: messagesPage.offset, limit: messagesPage.limit },
  });
}
