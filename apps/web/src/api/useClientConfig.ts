import type { ClientConfig } from '@parley/shared';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useApiClient } from './apiContext';
import { ApiError, apiErrorMessages } from './client';
import { isClientConfig } from './clientConfigGuard';

export const clientConfigQueryKey = ['config'] as const;

/** GET /v1/config: what the server tells the app before it renders. */
export const useClientConfig = (): UseQueryResult<ClientConfig> => {
  const api = useApiClient();
  return useQuery({
    queryKey: clientConfigQueryKey,
    queryFn: async ({ signal }) => {
      const config = await api.get('/v1/config', { signal });
      if (!isClientConfig(config)) throw new ApiError(apiErrorMessages.unrecognized);
      return config;
    },
    staleTime: Infinity,
  });
};
