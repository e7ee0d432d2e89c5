import type { AssignGroup, Contact, Conversation, Counts, MessageMedia, SendMessageResult } from '@parley/shared';
import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
  type UseQueryResult,
} from '@tanstack/react-query';
import { useApiClient } from '../../../api/apiContext';
import type { ApiClient } from '../../../api/client';
import { accountQueryKey } from '../../../session/queries';
import { applyInboxEvent } from './cacheSync';
import type { InboxEvent } from './inboxEvents';
import type { ConversationPage, MessagePage } from './inboxReducer';
import { inboxKeys, type ConversationListParams } from './queryKeys';

/** How many messages the history loads at a time ('Load older' asks for the next as many). */
export const HISTORY_PAGE_SIZE = 25;

const base = (accountId: string): string => `/v1/accounts/${accountId}`;

const conversationPage = (api: ApiClient, accountId: string, params: ConversationListParams, signal?: AbortSignal) =>
  api.get<ConversationPage>(`${base(accountId)}/conversations`, {
    query: { ...params, q: params.q === '' ? undefined : params.q },
    ...(signal === undefined ? {} : { signal }),
  });

/** GET conversations with the table's filters; the previous page stays on screen while the next loads. */
export const useConversationList = (accountId: string, params: ConversationListParams): UseQueryResult<ConversationPage> => {
  const api = useApiClient();
  return useQuery({
    queryKey: inboxKeys.list(accountId, params),
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => conversationPage(api, accountId, params, signal),
  });
};

/** The open conversations of one contact, fetched fresh (Start Conversation decides with them). */
export const useFetchContactConversations = (accountId: string) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return (contactId: string): Promise<ConversationPage> => {
    const params: ConversationListParams = { closed: false, unread: false, q: '', contactId, offset: 0, limit: 50 };
    return queryClient.query({
      queryKey: inboxKeys.list(accountId, params),
      queryFn: ({ signal }) => conversationPage(api, accountId, params, signal),
      staleTime: 0,
    });
  };
};

/** GET contacts/{id}: the conversation's contact in full, so the editor prices and fills tokens for it. */
export const useContact = (accountId: string, contactId: string | null): UseQueryResult<Contact> => {
  const api = useApiClient();
  return useQuery({
    queryKey: ['accounts', accountId, 'contacts', 'one', contactId],
    enabled: contactId !== null,
    queryFn: async ({ signal }) => (await api.get<{ data: Contact }>(`${base(accountId)}/contacts/${contactId ?? ''}`, { signal })).data,
  });
};

/** GET conversations/{id}: the header of the conversation view (its history comes from GET messages). */
export const useConversation = (accountId: string, conversationId: string): UseQueryResult<Conversation> => {
  const api = useApiClient();
  return useQuery({
    queryKey: inboxKeys.detail(accountId, conversationId),
    queryFn: async ({ signal }) =>
      (await api.get<{ data: Conversation }>(`${base(accountId)}/conversations/${conversationId}`, { query: { limit: 1 }, signal })).data,
  });
};

/** GET messages?conversationId=, newest first, a page at a time. */
export const useConversationMessages = (accountId: string, conversationId: string) => {
  const api = useApiClient();
  return useInfiniteQuery({
    queryKey: inboxKeys.messages(accountId, conversationId),
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      api.get<MessagePage>(`${base(accountId)}/messages`, {
        query: { conversationId, offset: pageParam, limit: HISTORY_PAGE_SIZE },
        signal,
      }),
    // Messages that arrived live joined the first page, so what is loaded is where the older ones start.
    getNextPageParam: (lastPage, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.data.length, 0);
      return lastPage.data.length > 0 && loaded < lastPage.pagination.totalCount ? loaded : undefined;
    },
  });
};

/** GET counts/unread: open conversations with unread messages, for the side menu's badge. */
export const useUnreadCount = (accountId: string | null): UseQueryResult<number> => {
  const api = useApiClient();
  return useQuery({
    queryKey: inboxKeys.unreadCount(accountId ?? ''),
    enabled: accountId !== null,
    queryFn: ({ signal }) => api.get<Counts>(`${base(accountId ?? '')}/counts/unread`, { signal }),
    select: (counts) => counts.data.unread,
  });
};

/** What a change the user made does to the cache at once, as the websocket's event will (it arrives too, harmlessly). */
const applyLocally = (queryClient: QueryClient, accountId: string, event: InboxEvent): void => {
  applyInboxEvent(queryClient, accountId, event, (queryKey) => {
    void queryClient.invalidateQueries({ queryKey, exact: true });
  });
};

/** POST conversations: the contact's open conversation, started when it has none. */
export const useStartConversation = (accountId: string) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ contactId, phoneNumberId }: { contactId: string; phoneNumberId: string | null }) =>
      (
        await api.post<{ data: Conversation }>(`${base(accountId)}/conversations`, {
          contact: { id: contactId },
          ...(phoneNumberId === null ? {} : { phoneNumber: { id: phoneNumberId } }),
        })
      ).data,
    onSuccess: (conversation) => {
      queryClient.setQueryData(inboxKeys.detail(accountId, conversation.id), conversation);
      void queryClient.invalidateQueries({ queryKey: inboxKeys.lists(accountId) });
    },
  });
};

const useConversationChange = <T>(accountId: string, conversationId: string, path: string, type: 'conversationClosed' | 'conversationRead' | 'conversationUpdated') => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: T) => (await api.put<{ data: Conversation }>(`${base(accountId)}/conversations/${conversationId}/${path}`, body)).data,
    onSuccess: (conversation) => {
      applyLocally(queryClient, accountId, { type, conversation });
    },
  });
};

/** PUT conversations/{id}/close (no body). */
export const useCloseConversation = (accountId: string, conversationId: string) =>
  useConversationChange<undefined>(accountId, conversationId, 'close', 'conversationClosed');

/** PUT conversations/{id}/assigngroup {group: {id} | null}. */
export const useAssignGroup = (accountId: string, conversationId: string) =>
  useConversationChange<AssignGroup>(accountId, conversationId, 'assigngroup', 'conversationUpdated');

/** PUT conversations/{id}/read {read}: read marks everything read; unread marks the last incoming message unread. */
export const useMarkConversationRead = (accountId: string, conversationId: string) =>
  useConversationChange<{ read: boolean }>(accountId, conversationId, 'read', 'conversationRead');

export interface ReplyRequest {
  template: string;
  media: MessageMedia[];
  /** The sender chose to send at once, outside the contact's acceptable hours. */
  sendNow?: boolean;
}

/** POST messages to the conversation: it answers from the conversation's own number. Media alone sends an empty text. */
export const useReply = (accountId: string, conversationId: string) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (draft: ReplyRequest) =>
      api.post<SendMessageResult>(`${base(accountId)}/messages`, {
        conversations: [conversationId],
        template: draft.template.trim() === '' ? '' : draft.template,
        media: draft.media,
        ...(draft.sendNow === true ? { sendNow: true } : {}),
      }),
    onSuccess: (result) => {
      for (const message of result.data.messages) applyLocally(queryClient, accountId, { type: 'messageSent', message });
      // The balance paid for it.
      void queryClient.invalidateQueries({ queryKey: accountQueryKey(accountId), exact: true });
    },
  });
};
