import {
  NOTIFICATIONS_MAX_PER_ACCOUNT,
  type Notification,
  type NotificationAttempt,
  type NotificationDelivery,
  type NotificationDeliveryStatus,
  type NotificationType,
  type Pagination,
  type SaveNotification,
} from '@parley/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useApiClient } from '../../api/apiContext';

export interface NotificationPage {
  data: Notification[];
  pagination: Pagination;
}

export interface DeliveryPage {
  data: NotificationDelivery[];
  pagination: Pagination;
}

export type DeliveryRecord = NotificationDelivery & { attemptLog: NotificationAttempt[] };

export interface RotatedSecret {
  secret: string;
  previousValidUntil: string;
}

/** How often an open delivery log asks again, so a new delivery shows without a reload. */
export const DELIVERIES_REFRESH_MS = 5000;

export const notificationsQueryKey = (accountId: string) => ['accounts', accountId, 'notifications'] as const;
const deliveriesKey = (accountId: string, notificationId: string) =>
  [...notificationsQueryKey(accountId), notificationId, 'deliveries'] as const;

const base = (accountId: string) => `/v1/accounts/${accountId}/notifications`;
const deliveriesPath = (accountId: string, notificationId: string) => `${base(accountId)}/${notificationId}/deliveries`;

/** GET .../notifications: all of them at once (an account has at most NOTIFICATIONS_MAX_PER_ACCOUNT), oldest first. */
export const useNotifications = (accountId: string, only?: NotificationType): UseQueryResult<NotificationPage> => {
  const api = useApiClient();
  return useQuery({
    queryKey: notificationsQueryKey(accountId),
    queryFn: ({ signal }) => api.get<NotificationPage>(base(accountId), { query: { limit: NOTIFICATIONS_MAX_PER_ACCOUNT }, signal }),
    // One cached list for both pages; the Webhooks page reads its type out of it.
    ...(only === undefined ? {} : { select: (page: NotificationPage) => ({ ...page, data: page.data.filter((n) => n.type === only) }) }),
  });
};

/** POST (new: a webhook's answer carries its secret, once) or PUT (existing); the table reloads after. */
export const useSaveNotification = (accountId: string, id: string | null) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: SaveNotification) =>
      id === null
        ? (await api.post<{ data: Notification }>(base(accountId), body)).data
        : (await api.put<{ data: Notification }>(`${base(accountId)}/${id}`, body)).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationsQueryKey(accountId) }),
  });
};

export const useRemoveNotification = (accountId: string) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`${base(accountId)}/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationsQueryKey(accountId) }),
  });
};

export interface DeliveryListQuery {
  offset: number;
  limit: number;
  status: NotificationDeliveryStatus | null;
}

/** GET .../notifications/{id}/deliveries, newest first, asked again every few seconds while shown. */
export const useDeliveries = (accountId: string, notificationId: string, query: DeliveryListQuery): UseQueryResult<DeliveryPage> => {
  const api = useApiClient();
  return useQuery({
    queryKey: [...deliveriesKey(accountId, notificationId), query],
    queryFn: ({ signal }) =>
      api.get<DeliveryPage>(deliveriesPath(accountId, notificationId), {
        query: { offset: query.offset, limit: query.limit, status: query.status },
        signal,
      }),
    placeholderData: keepPreviousData,
    refetchInterval: DELIVERIES_REFRESH_MS,
  });
};

/** GET .../deliveries/{deliveryId}: one delivery with every attempt; asked again while it is pending. */
export const useDelivery = (accountId: string, notificationId: string, deliveryId: string): UseQueryResult<DeliveryRecord> => {
  const api = useApiClient();
  return useQuery({
    queryKey: [...deliveriesKey(accountId, notificationId), 'one', deliveryId],
    queryFn: async ({ signal }) =>
      (await api.get<{ data: DeliveryRecord }>(`${deliveriesPath(accountId, notificationId)}/${deliveryId}`, { signal })).data,
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? DELIVERIES_REFRESH_MS : false),
  });
};

/** The delivery actions (resend one, send a test event) answer 202 with the delivery; the log reloads. */
const useDeliveryAction = <Input>(accountId: string, notificationId: string, pathOf: (input: Input) => string) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: Input) => (await api.post<{ data: NotificationDelivery }>(pathOf(input))).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deliveriesKey(accountId, notificationId) }),
  });
};

/** POST .../deliveries/{deliveryId}/resend: the same event (same id) again, as a new try. */
export const useResendDelivery = (accountId: string, notificationId: string) =>
  useDeliveryAction<string>(accountId, notificationId, (deliveryId) => `${deliveriesPath(accountId, notificationId)}/${deliveryId}/resend`);

/** POST .../notifications/{id}/test: a test event to this notification only. */
export const useSendTestEvent = (accountId: string, notificationId: string) =>
  useDeliveryAction<undefined>(accountId, notificationId, () => `${base(accountId)}/${notificationId}/test`);

/** POST .../notifications/{id}/secret: a webhook's new signing secret, answered once. */
export const useRotateSecret = (accountId: string, notificationId: string) => {
  const api = useApiClient();
  return useMutation({
    mutationFn: async () => (await api.post<{ data: RotatedSecret }>(`${base(accountId)}/${notificationId}/secret`)).data,
  });
};
