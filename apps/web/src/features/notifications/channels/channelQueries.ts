import type { NotificationChannel, SaveNotificationChannel } from '@parley/shared';
import { useMutation, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useApiClient } from '../../../api/apiContext';

const channelsKey = (accountId: string) => ['accounts', accountId, 'notificationchannels'] as const;
const base = (accountId: string) => `/v1/accounts/${accountId}/notificationchannels`;

/** GET .../notificationchannels: the user's e-mail, SMS and Slack channels, connected or not. */
export const useChannels = (accountId: string): UseQueryResult<{ data: NotificationChannel[] }> => {
  const api = useApiClient();
  return useQuery({ queryKey: channelsKey(accountId), queryFn: ({ signal }) => api.get<{ data: NotificationChannel[] }>(base(accountId), { signal }) });
};

/** GET .../notificationchannels/{kind or id}; Slack's answer lists the workspace's channels. */
export const useChannel = (accountId: string, channel: string): UseQueryResult<{ data: NotificationChannel }> => {
  const api = useApiClient();
  return useQuery({ queryKey: [...channelsKey(accountId), channel], queryFn: ({ signal }) => api.get<{ data: NotificationChannel }>(`${base(accountId)}/${channel}`, { signal }) });
};

export const useSaveChannel = (accountId: string, channel: string) => {
  const api = useApiClient();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SaveNotificationChannel) => api.put<{ data: NotificationChannel }>(`${base(accountId)}/${channel}`, body),
    onSettled: () => client.invalidateQueries({ queryKey: channelsKey(accountId) }),
  });
};

export const useDisconnectChannel = (accountId: string, channel: string) => {
  const api = useApiClient();
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete(`${base(accountId)}/${channel}/disconnect`),
    onSettled: () => client.invalidateQueries({ queryKey: channelsKey(accountId) }),
  });
};

/** "Add to Slack": the server's OAuth URL, then the browser goes there. */
export const useAddToSlack = (accountId: string) => {
  const api = useApiClient();
  return useMutation({
    mutationFn: () => api.get<{ data: { url: string } }>(`${base(accountId)}/slack/authorize`),
    onSuccess: ({ data }) => {
      window.location.assign(data.url);
    },
  });
};
