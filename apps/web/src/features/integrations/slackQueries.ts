import type { SlackWorkspace } from '@parley/shared';
import { useMutation, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useApiClient } from '../../api/apiContext';

type Workspaces = { configured: boolean; workspaces: SlackWorkspace[] };

const path = (accountId: string) => `/v1/accounts/${accountId}/integrations/slack/workspaces`;
const key = (accountId: string) => ['accounts', accountId, 'integrations', 'slack', 'workspaces'] as const;

/** GET .../integrations/slack/workspaces: whether Slack is configured, and the account's workspaces. */
export const useSlackWorkspaces = (accountId: string): UseQueryResult<Workspaces> => {
  const api = useApiClient();
  return useQuery({ queryKey: key(accountId), queryFn: async ({ signal }) => (await api.get<{ data: Workspaces }>(path(accountId), { signal })).data });
};

/** DELETE .../integrations/slack/workspaces: every Slack channel of the account revoked and removed. */
export const useDisconnectSlack = (accountId: string) => {
  const api = useApiClient();
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete(path(accountId)),
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: ['accounts', accountId, 'integrations'] }),
        client.invalidateQueries({ queryKey: ['accounts', accountId, 'notificationchannels'] }),
      ]),
  });
};
