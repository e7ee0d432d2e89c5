import type { Account, AccountSummary, Pagination, Profile, ProfileInvitation } from '@parley/shared';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useApiClient } from '../api/apiContext';

export const profileQueryKey = ['profile'] as const;
export const accountsQueryKey = ['accounts'] as const;
export const accountQueryKey = (id: string) => ['accounts', id] as const;

/** GET /v1/profile: who is signed in, and whether the first-login checks are done. */
export const useProfile = (): UseQueryResult<Profile> => {
  const api = useApiClient();
  return useQuery({
    queryKey: profileQueryKey,
    queryFn: async ({ signal }) => (await api.get<{ data: Profile }>('/v1/profile', { signal })).data,
  });
};

export const invitationsQueryKey = ['profile', 'invitations'] as const;

/** GET /v1/profile/invitations: open invitations to the user's address; asked only when `enabled`. */
export const useOpenInvitations = (enabled: boolean): UseQueryResult<ProfileInvitation[]> => {
  const api = useApiClient();
  return useQuery({
    queryKey: invitationsQueryKey,
    queryFn: async ({ signal }) => (await api.get<{ data: ProfileInvitation[] }>('/v1/profile/invitations', { signal })).data,
    enabled,
  });
};

/** GET /v1/accounts?limit=100: the accounts the user belongs to. */
export const useAccounts = (): UseQueryResult<{ data: AccountSummary[]; pagination: Pagination }> => {
  const api = useApiClient();
  return useQuery({
    queryKey: accountsQueryKey,
    queryFn: ({ signal }) =>
      api.get<{ data: AccountSummary[]; pagination: Pagination }>('/v1/accounts', { query: { limit: 100 }, signal }),
  });
};

/** A balance awaited: asked again every few seconds while it still reads `from`, until `until` (epoch ms). */
export interface BalanceFollow {
  from: string;
  until: number;
}

export const BALANCE_FOLLOW_MS = 2_000;

/** The refetch interval for a followed balance: on while it has not moved and the follow has not expired. */
export const balanceRefetchInterval = (follow: BalanceFollow | null, balance: string | undefined, now: number): number | false =>
  follow !== null && now < follow.until && (balance === undefined || balance === follow.from) ? BALANCE_FOLLOW_MS : false;

/**
 * GET /v1/accounts/{acc}: the chosen account in full (plan, balance, trial). With `follow`, the balance is
 * asked again until it moves: a top-up moves it when the provider confirms the payment (docs/billing.md).
 */
export const useAccount = (id: string | null, follow: BalanceFollow | null = null): UseQueryResult<Account> => {
  const api = useApiClient();
  return useQuery({
    queryKey: accountQueryKey(id ?? ''),
    enabled: id !== null,
    queryFn: async ({ signal }) => (await api.get<{ data: Account }>(`/v1/accounts/${id ?? ''}`, { signal })).data,
    refetchInterval: (query) => balanceRefetchInterval(follow, query.state.data?.balance, Date.now()),
  });
};
