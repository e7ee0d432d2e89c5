import type { CallList } from '@parley/shared';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useApiClient } from '../../../api/apiContext';
import { inboxKeys } from './queryKeys';

/** How many of a conversation's calls the history shows (the newest). */
export const CALLS_SHOWN = 100;

/** GET conversations/{id}/calls: the calls shown between the messages; a callRecorded event fetches them again. */
export const useConversationCalls = (accountId: string, conversationId: string): UseQueryResult<CallList> => {
  const api = useApiClient();
  return useQuery({
    queryKey: inboxKeys.calls(accountId, conversationId),
    queryFn: ({ signal }) =>
      api.get<CallList>(`/v1/accounts/${accountId}/conversations/${conversationId}/calls`, { query: { limit: CALLS_SHOWN, offset: 0 }, signal }),
  });
};
