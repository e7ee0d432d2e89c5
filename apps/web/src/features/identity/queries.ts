import type { ApiCredentials } from '@parley/shared';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useApiClient } from '../../api/apiContext';

export const credentialsQueryKey = (accountId: string) => ['accounts', accountId, 'credentials'] as const;

/** GET /v1/accounts/{acc}/credentials: null before any were requested; the secret comes masked. */
export const useApiCredentials = (accountId: string): UseQueryResult<ApiCredentials | null> => {
  const api = useApiClient();
  return useQuery({
    queryKey: credentialsQueryKey(accountId),
    queryFn: async ({ signal }) =>
      (await api.get<{ data: ApiCredentials | null }>(`/v1/accounts/${accountId}/credentials`, { signal })).data,
  });
};
