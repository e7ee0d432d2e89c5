import { clientConfigSchema, type ClientConfig } from '@parley/shared';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useApiClient } from './apiContext';

export const clientConfigQueryKey = ['config'] as const;

/** GET /v1/config: what the server tells the app before it renders. */
export const useClientConfig = (): UseQueryResult<ClientConfig> => {
  const api = useApiClient();
  return useQuery({
    queryKey: clientConfigQueryKey,
    queryFn: ({ signal }) => api.get('/v1/config', { schema: clientConfigSchema, signal }),
    staleTime: Infinity,
  });
};
