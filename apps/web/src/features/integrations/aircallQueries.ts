import { AIRCALL_REFRESH_FAILED_MESSAGE, type AirCallDirectory, type AirCallLinesChange, type AirCallRefreshResponse } from '@parley/shared';
import { useMutation, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useApiClient } from '../../api/apiContext';
import { ApiError, errorMessage } from '../../api/client';

const base = (accountId: string) => `/v1/accounts/${accountId}/integrations/aircall`;
const directoryKey = (accountId: string) => ['accounts', accountId, 'integrations', 'aircall', 'lines'] as const;

/** GET .../aircall/lines: AirCall's numbers with where their calls go, and its users, as the last refresh found them. */
export const useAirCallDirectory = (accountId: string): UseQueryResult<AirCallDirectory> => {
  const api = useApiClient();
  return useQuery({ queryKey: directoryKey(accountId), queryFn: async ({ signal }) => (await api.get<{ data: AirCallDirectory }>(`${base(accountId)}/lines`, { signal })).data });
};

/** The spec's text for a refresh that failed: the server's reason, else 'Refresh failed'. */
export const refreshFailure = (error: unknown): string => (error instanceof ApiError && error.message !== '' ? errorMessage(error) : AIRCALL_REFRESH_FAILED_MESSAGE);

/** GET .../aircall/refresh: its `success` flag is read; false throws with AirCall's reason. */
export const useAirCallRefresh = (accountId: string) => {
  const api = useApiClient();
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const answer = await api.get<AirCallRefreshResponse>(`${base(accountId)}/refresh`);
      if (!answer.success) throw new ApiError(answer.error.message === '' ? AIRCALL_REFRESH_FAILED_MESSAGE : answer.error.message, 200);
      return answer.data;
    },
    onSuccess: (data) => {
      client.setQueryData(directoryKey(accountId), data);
    },
  });
};

/** PUT .../aircall/lines: where the named numbers' calls go. */
export const useAirCallLines = (accountId: string) => {
  const api = useApiClient();
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (change: AirCallLinesChange) => (await api.put<{ data: AirCallDirectory }>(`${base(accountId)}/lines`, change)).data,
    onSuccess: (data) => {
      client.setQueryData(directoryKey(accountId), data);
    },
  });
};
