import type { Account, AccountUser, Pagination } from '@parley/shared';
import { useMutation, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useApiClient } from '../../api/apiContext';
import { accountQueryKey } from '../../session/queries';

export const usersQueryKey = (accountId: string) => ['accounts', accountId, 'users'] as const;

/** GET /v1/accounts/{acc}/users: members and open invitations, by name. */
export const useAccountUsers = (accountId: string): UseQueryResult<AccountUser[]> => {
  const api = useApiClient();
  return useQuery({
    queryKey: usersQueryKey(accountId),
    queryFn: async ({ signal }) =>
      (
        await api.get<{ data: AccountUser[]; pagination: Pagination }>(`/v1/accounts/${accountId}/users`, {
          query: { limit: 100 },
          signal,
        })
      ).data,
  });
};

/** A PUT on the account or its options answers the account: keep the cache on it. */
export const useAccountUpdate = <Body>(accountId: string, path: '' | '/options') => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: Body) => (await api.put<{ data: Account }>(`/v1/accounts/${accountId}${path}`, body)).data,
    onSuccess: (account) => {
      queryClient.setQueryData(accountQueryKey(accountId), account);
    },
  });
};
