import type { Integration, IntegrationKind, IntegrationSync } from '@parley/shared';
import { activeSyncStatuses, PROPERTIES_SAVED_MESSAGE } from '@parley/shared';
import { useMutation, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useApiClient } from '../../api/apiContext';
import { useSnackbar } from '../../components/snackbarContext';

/** How often an integration's page asks again while a sync runs, so its progress moves. */
export const SYNC_REFRESH_MS = 2000;

const listKey = (accountId: string) => ['accounts', accountId, 'integrations'] as const;
const oneKey = (accountId: string, kind: IntegrationKind) => [...listKey(accountId), kind] as const;
const base = (accountId: string) => `/v1/accounts/${accountId}/integrations`;

export const syncActive = (sync: IntegrationSync | undefined): boolean => sync !== undefined && activeSyncStatuses.includes(sync.status);

/** GET .../integrations: every kind with its status. */
export const useIntegrations = (accountId: string): UseQueryResult<{ data: Integration[] }> => {
  const api = useApiClient();
  return useQuery({ queryKey: listKey(accountId), queryFn: ({ signal }) => api.get<{ data: Integration[] }>(base(accountId), { signal }) });
};

/** GET .../integrations/{kind}, asked again while one of its syncs runs. */
export const useIntegration = (accountId: string, kind: IntegrationKind): UseQueryResult<{ data: Integration }> => {
  const api = useApiClient();
  return useQuery({
    queryKey: oneKey(accountId, kind),
    queryFn: ({ signal }) => api.get<{ data: Integration }>(`${base(accountId)}/${kind}`, { signal }),
    refetchInterval: (query) => {
      const syncs = query.state.data?.data.syncs;
      return syncActive(syncs?.contacts) || syncActive(syncs?.tags) ? SYNC_REFRESH_MS : false;
    },
  });
};

/** A change to an integration: the page's record is replaced by the answer, the list asked again. */
const useIntegrationMutation = <T,>(accountId: string, kind: IntegrationKind, call: (path: string, body: T) => Promise<unknown>, onSuccess?: () => void) => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: T) => call(`${base(accountId)}/${kind}`, body),
    onSuccess,
    onSettled: () => client.invalidateQueries({ queryKey: listKey(accountId) }),
  });
};

export const useConnect = (accountId: string, kind: IntegrationKind) => {
  const api = useApiClient();
  return useIntegrationMutation(accountId, kind, (path, body: Record<string, string>) => api.post(`${path}/connect`, body));
};

/**
 * PUT .../properties with the changed fields only. The saved message is shown here, not by the form: the
 * saved properties give a form a new key, and a form remounted before the mutation settles (the page's
 * record can come back before the rest of what is asked again) would never hear of its success.
 */
export const useSaveProperties = (accountId: string, kind: IntegrationKind) => {
  const api = useApiClient();
  const snackbar = useSnackbar();
  return useIntegrationMutation(accountId, kind, (path, changed: Record<string, unknown>) => api.put(`${path}/properties`, changed), () => {
    snackbar.show(PROPERTIES_SAVED_MESSAGE);
  });
};

export const useSynchronize = (accountId: string, kind: IntegrationKind) => {
  const api = useApiClient();
  return useIntegrationMutation(accountId, kind, (path, what: 'synchronize' | 'synchronizetags') => api.post(`${path}/${what}`));
};

export const useDisconnect = (accountId: string, kind: IntegrationKind) => {
  const api = useApiClient();
  return useIntegrationMutation(accountId, kind, (path, _none: undefined) => api.delete(`${path}/disconnect`));
};

/** GET .../oauth/start: the provider's authorization page; the browser goes there. */
export const useOAuthStart = (accountId: string, kind: IntegrationKind) => {
  const api = useApiClient();
  return useMutation({
    mutationFn: () => api.get<{ data: { url: string } }>(`${base(accountId)}/${kind}/oauth/start`),
    onSuccess: (answer) => {
      window.location.assign(answer.data.url);
    },
  });
};
