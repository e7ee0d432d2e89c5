import { AUTO_RESPONDERS_MAX, type AutoResponder, type Pagination, type SaveAutoResponder } from '@parley/shared';
import { useMutation, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useApiClient } from '../../api/apiContext';

export interface AutoResponderPage {
  data: AutoResponder[];
  pagination: Pagination;
}

export const autoRespondersQueryKey = (accountId: string) => ['accounts', accountId, 'autoResponders'] as const;

const base = (accountId: string) => `/v1/accounts/${accountId}/autoresponders`;

/** GET .../autoresponders: all of them at once (an account has at most AUTO_RESPONDERS_MAX), oldest first. */
export const useAutoResponders = (accountId: string): UseQueryResult<AutoResponderPage> => {
  const api = useApiClient();
  return useQuery({
    queryKey: autoRespondersQueryKey(accountId),
    queryFn: ({ signal }) => api.get<AutoResponderPage>(base(accountId), { query: { limit: AUTO_RESPONDERS_MAX }, signal }),
  });
};

/** POST (new) or PUT (existing) a responder; the table reloads after. */
export const useSaveAutoResponder = (accountId: string, id: string | null) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: SaveAutoResponder) =>
      id === null
        ? (await api.post<{ data: AutoResponder }>(base(accountId), body)).data
        : (await api.put<{ data: AutoResponder }>(`${base(accountId)}/${id}`, body)).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: autoRespondersQueryKey(accountId) }),
  });
};

export const useRemoveAutoResponder = (accountId: string) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`${base(accountId)}/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: autoRespondersQueryKey(accountId) }),
  });
};
