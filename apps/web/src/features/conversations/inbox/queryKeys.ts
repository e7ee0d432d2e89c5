import type { QueryKey } from '@tanstack/react-query';

/** The filters of one conversation list request, as the key of its cached page. */
export interface ConversationListParams {
  closed: boolean;
  unread: boolean;
  /** The search text, already debounced and trimmed ('' for none). */
  q: string;
  /** One contact's conversations (the Start Conversation dialog); undefined for all. */
  contactId?: string;
  offset: number;
  limit: number;
}

/*
 * The inbox queries live under the account's key, beside the other account data. The Send Message dialog
 * invalidates ['accounts', acc, 'conversations'] and ['accounts', acc, 'messages'] after a send, so both
 * prefixes stay as they are.
 */
export const inboxKeys = {
  conversations: (accountId: string) => ['accounts', accountId, 'conversations'] as const,
  lists: (accountId: string) => ['accounts', accountId, 'conversations', 'list'] as const,
  list: (accountId: string, params: ConversationListParams) => ['accounts', accountId, 'conversations', 'list', params] as const,
  detail: (accountId: string, conversationId: string) => ['accounts', accountId, 'conversations', 'detail', conversationId] as const,
  messages: (accountId: string, conversationId: string) => ['accounts', accountId, 'messages', 'conversation', conversationId] as const,
  calls: (accountId: string, conversationId: string) => ['accounts', accountId, 'conversations', 'calls', conversationId] as const,
  unreadCount: (accountId: string) => ['accounts', accountId, 'counts', 'unread'] as const,
};

const inboxAreas: readonly unknown[] = ['conversations', 'messages', 'counts'];

/** Whether a cached query belongs to the inbox of an account (what a reconnect refetches). */
export const isInboxQuery = (key: QueryKey, accountId: string): boolean =>
  key[0] === 'accounts' && key[1] === accountId && inboxAreas.includes(key[2]);

/** The filters a cached list page was fetched with (the last part of its key). */
export const listParamsOf = (key: QueryKey): ConversationListParams | null => {
  const params = key[4];
  return typeof params === 'object' && params !== null ? (params as ConversationListParams) : null;
};
