import type { CarrierConnection, ConnectTwilio, PhoneNumber, TwilioAccountNumber } from '@parley/shared';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useApiClient } from '../../api/apiContext';

type NumbersPage = { data: TwilioAccountNumber[]; nextCursor: string | null };

const base = (accountId: string) => `/v1/accounts/${accountId}/integrations/twilio/connections`;
const connectionsKey = (accountId: string) => ['accounts', accountId, 'integrations', 'twilio', 'connections'] as const;
const numbersKey = (accountId: string, id: string) => [...connectionsKey(accountId), id, 'numbers'] as const;

/** Everything the page and its neighbours show of the account's Twilio connection: asked again after a change. */
const useRefresh = (accountId: string) => {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: ['accounts', accountId, 'integrations'] }),
      client.invalidateQueries({ queryKey: ['accounts', accountId, 'phoneNumbers'] }),
    ]);
};

/** GET .../integrations/twilio/connections: the account's Twilio connections, oldest first. */
export const useTwilioConnections = (accountId: string): UseQueryResult<CarrierConnection[]> => {
  const api = useApiClient();
  return useQuery({
    queryKey: connectionsKey(accountId),
    queryFn: async ({ signal }) => (await api.get<{ data: CarrierConnection[] }>(base(accountId), { signal })).data,
  });
};

export const useConnectTwilio = (accountId: string) => {
  const api = useApiClient();
  const refresh = useRefresh(accountId);
  return useMutation({ mutationFn: (body: ConnectTwilio) => api.post(base(accountId), body), onSuccess: refresh });
};

/** The Twilio account's numbers, a page at a time (Twilio's own paging). */
export const useTwilioNumbers = (accountId: string, connectionId: string) => {
  const api = useApiClient();
  return useInfiniteQuery({
    queryKey: numbersKey(accountId, connectionId),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) =>
      api.get<NumbersPage>(`${base(accountId)}/${connectionId}/numbers`, { query: pageParam === null ? {} : { cursor: pageParam }, signal }),
    getNextPageParam: (last) => last.nextCursor,
  });
};

export const useImportTwilioNumbers = (accountId: string, connectionId: string) => {
  const api = useApiClient();
  const refresh = useRefresh(accountId);
  return useMutation({
    mutationFn: (sids: string[]) => api.post<{ data: PhoneNumber[] }>(`${base(accountId)}/${connectionId}/numbers`, { sids }),
    onSuccess: refresh,
  });
};

export const useDisconnectTwilio = (accountId: string) => {
  const api = useApiClient();
  const refresh = useRefresh(accountId);
  return useMutation({ mutationFn: (connectionId: string) => api.delete(`${base(accountId)}/${connectionId}`), onSuccess: refresh });
};
