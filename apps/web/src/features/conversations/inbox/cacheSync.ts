import type { Conversation, Counts } from '@parley/shared';
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { conversationIdOf, type InboxEvent } from './inboxEvents';
import {
  applyToConversation,
  applyToConversationPage,
  applyToMessagePages,
  applyToUnreadCount,
  type ConversationPage,
  type MessagePages,
  type Outcome,
} from './inboxReducer';
import { acceptableHoursKey, heldCountKey } from '../../messaging';
import { inboxKeys, listParamsOf } from './queryKeys';

/** The conversation as the cache knows it: the open one first, else a row of any cached list. */
function knownConversation(queryClient: QueryClient, accountId: string, conversationId: string): Conversation | null {
  const detail = queryClient.getQueryData<Conversation>(inboxKeys.detail(accountId, conversationId));
  if (detail !== undefined) return detail;
  for (const [, page] of queryClient.getQueriesData<ConversationPage>({ queryKey: inboxKeys.lists(accountId) })) {
    const row = page?.data.find((c) => c.id === conversationId);
    if (row !== undefined) return row;
  }
  return null;
}

function settle<T>(queryClient: QueryClient, key: QueryKey, outcome: Outcome<T>, refetch: (key: QueryKey) => void): void {
  switch (outcome.kind) {
    case 'updated':
      queryClient.setQueryData<T>(key, outcome.value);
      return;
    case 'invalidate':
      refetch(key);
      return;
    case 'unchanged':
      return;
  }
}

/**
 * Applies one inbox event to every cached inbox query of the account: the conversation lists, the open
 * conversation, its history and the unread count. What the cache cannot work out is handed to `refetch`.
 */
export function applyInboxEvent(queryClient: QueryClient, accountId: string, event: InboxEvent, refetch: (key: QueryKey) => void): void {
  const id = conversationIdOf(event);
  // Read before anything changes: the count moves by what this event changed.
  const before = knownConversation(queryClient, accountId, id);

  const countKey = inboxKeys.unreadCount(accountId);
  const counts = queryClient.getQueryData<Counts>(countKey);
  if (counts !== undefined) {
    const outcome = applyToUnreadCount(counts.data.unread, before, event);
    settle<Counts>(
      queryClient,
      countKey,
      outcome.kind === 'updated' ? { kind: 'updated', value: { data: { ...counts.data, unread: outcome.value } } } : outcome,
      refetch,
    );
  }

  for (const [key, page] of queryClient.getQueriesData<ConversationPage>({ queryKey: inboxKeys.lists(accountId) })) {
    const params = listParamsOf(key);
    if (page === undefined || params === null) continue;
    settle(queryClient, key, applyToConversationPage(page, params, event), refetch);
  }

  const detailKey = inboxKeys.detail(accountId, id);
  const detail = queryClient.getQueryData<Conversation>(detailKey);
  if (detail !== undefined) settle(queryClient, detailKey, applyToConversation(detail, event), refetch);

  const messagesKey = inboxKeys.messages(accountId, id);
  const history = queryClient.getQueryData<MessagePages>(messagesKey);
  if (history !== undefined) settle(queryClient, messagesKey, applyToMessagePages(history, id, event), refetch);
  if ('message' in event) refetchAcceptableHours(queryClient, accountId, event, refetch);
}

/**
 * What quiet hours say changes with messages: a contact who just wrote is answered at once (the send box
 * asks again), and a held message, written or leaving, moves the count of held messages. Only what is
 * cached (someone is looking at it) is fetched again.
 */
function refetchAcceptableHours(
  queryClient: QueryClient,
  accountId: string,
  event: Extract<InboxEvent, { message: unknown }>,
  refetch: (key: QueryKey) => void,
): void {
  const cached = (key: QueryKey): boolean => queryClient.getQueryState(key) !== undefined;
  const hours = acceptableHoursKey(accountId, event.message.contact.id);
  if (event.type === 'messageReceived' && cached(hours)) refetch(hours);
  const held = heldCountKey(accountId);
  if (event.message.outgoing && event.message.sendAfter !== undefined && cached(held)) refetch(held);
}
