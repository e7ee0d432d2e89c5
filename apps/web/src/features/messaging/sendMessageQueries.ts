import type { Contact, Pagination, SendMessageInput, SendMessageResult } from '@parley/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useApiClient } from '../../api/apiContext';
import { accountQueryKey } from '../../session/queries';

/** How many contacts the recipient search offers at a time. */
export const RECIPIENT_SEARCH_LIMIT = 10;

/** GET contacts?q=: the recipient search (the caller debounces the text). */
export const useRecipientSearch = (accountId: string, q: string, enabled: boolean): UseQueryResult<Contact[]> => {
  const api = useApiClient();
  return useQuery({
    queryKey: ['accounts', accountId, 'contacts', 'recipients', q],
    enabled,
    placeholderData: keepPreviousData,
    queryFn: async ({ signal }) =>
      (
        await api.get<{ data: Contact[]; pagination: Pagination }>(`/v1/accounts/${accountId}/contacts`, {
          query: { q, limit: RECIPIENT_SEARCH_LIMIT, orderBy: 'lastName-asc' },
          signal,
        })
      ).data,
  });
};

/** POST messages; the balance moved, and message and conversation lists gained rows. */
export const useSendMessage = (accountId: string) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SendMessageInput) => api.post<SendMessageResult>(`/v1/accounts/${accountId}/messages`, body),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: accountQueryKey(accountId), exact: true }),
        queryClient.invalidateQueries({ queryKey: ['accounts', accountId, 'messages'] }),
        queryClient.invalidateQueries({ queryKey: ['accounts', accountId, 'conversations'] }),
      ]);
    },
  });
};
