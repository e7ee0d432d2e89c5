import {
  SIMULATOR_PHONES_PAGE,
  SIMULATOR_THREAD_PAGE,
  type Pagination,
  type SaveSimulatorSettings,
  type SimulatorMessage,
  type SimulatorNumber,
  type SimulatorPhone,
  type SimulatorCallActionName,
  type SimulatorPhoneMessage,
  type SimulatorSettings,
} from '@parley/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useApiClient } from '../../api/apiContext';

/** How often the page looks for new phones, messages and receipts (until live updates arrive). */
export const SIMULATOR_REFRESH_MS = 1000;

const base = (accountId: string) => `/v1/accounts/${accountId}/simulator`;
const phonePath = (accountId: string, phone: string) => `${base(accountId)}/phones/${encodeURIComponent(phone)}/messages`;

export const simulatorQueryKey = (accountId: string) => ['accounts', accountId, 'simulator'] as const;

export interface PhonePage {
  data: SimulatorPhone[];
  pagination: Pagination;
}

/** The virtual phones, polled every second. */
export const useSimulatorPhones = (accountId: string): UseQueryResult<PhonePage> => {
  const api = useApiClient();
  return useQuery({
    queryKey: [...simulatorQueryKey(accountId), 'phones'],
    refetchInterval: SIMULATOR_REFRESH_MS,
    queryFn: ({ signal }) => api.get<PhonePage>(`${base(accountId)}/phones`, { query: { limit: SIMULATOR_PHONES_PAGE }, signal }),
  });
};

/**
 * A phone's thread. The phone list's `updated.at` is part of the key: the thread is fetched again only when
 * something on it changed (a message, a receipt), while the list itself is what is polled.
 */
export const usePhoneThread = (accountId: string, phone: string, updatedAt: string): UseQueryResult<SimulatorMessage[]> => {
  const api = useApiClient();
  return useQuery({
    queryKey: [...simulatorQueryKey(accountId), 'thread', phone, updatedAt],
    placeholderData: keepPreviousData,
    staleTime: Infinity,
    queryFn: async ({ signal }) =>
      (await api.get<{ data: SimulatorMessage[] }>(phonePath(accountId, phone), { query: { limit: SIMULATOR_THREAD_PAGE }, signal })).data,
  });
};

/** The account's active simulator numbers, which a phone may text. */
export const useSimulatorNumbers = (accountId: string): UseQueryResult<SimulatorNumber[]> => {
  const api = useApiClient();
  return useQuery({
    queryKey: [...simulatorQueryKey(accountId), 'numbers'],
    refetchInterval: 10 * SIMULATOR_REFRESH_MS,
    queryFn: async ({ signal }) => (await api.get<{ data: SimulatorNumber[] }>(`${base(accountId)}/numbers`, { signal })).data,
  });
};

export const useSimulatorSettings = (accountId: string): UseQueryResult<SimulatorSettings> => {
  const api = useApiClient();
  return useQuery({
    queryKey: [...simulatorQueryKey(accountId), 'settings'],
    queryFn: async ({ signal }) => (await api.get<{ data: SimulatorSettings }>(`${base(accountId)}/settings`, { signal })).data,
  });
};

export const useSaveSimulatorSettings = (accountId: string) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (settings: SaveSimulatorSettings) =>
      (await api.put<{ data: SimulatorSettings }>(`${base(accountId)}/settings`, settings)).data,
    onSuccess: (saved) => {
      queryClient.setQueryData([...simulatorQueryKey(accountId), 'settings'], saved);
    },
  });
};

/** A virtual phone texts a business number; the phone list is refreshed at once. */
export const usePhoneSend = (accountId: string) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ phone, message }: { phone: string; message: SimulatorPhoneMessage }) =>
      (await api.post<{ data: SimulatorMessage }>(phonePath(accountId, phone), message)).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...simulatorQueryKey(accountId), 'phones'] }),
  });
};

const callsPath = (accountId: string, phone: string) => `${base(accountId)}/phones/${encodeURIComponent(phone)}/calls`;

/** A virtual phone calls a business number (forwarded to its forwardTo, or missed); the phones are refreshed. */
export const usePhoneCall = (accountId: string) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ phone, to }: { phone: string; to: string }) => (await api.post<{ data: SimulatorMessage }>(callsPath(accountId, phone), { to })).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...simulatorQueryKey(accountId), 'phones'] }),
  });
};

/** Answer, Decline or Hang up a call on a virtual phone; the phones are refreshed. */
export const useCallAction = (accountId: string) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ phone, id, action }: { phone: string; id: string; action: SimulatorCallActionName }) =>
      (await api.post<{ data: SimulatorMessage }>(`${callsPath(accountId, phone)}/${id}`, { action })).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...simulatorQueryKey(accountId), 'phones'] }),
  });
};
