import type { AccountPlanStatus, CatalogPlan, Invoice, Pagination, PaymentSource } from '@parley/shared';
import { useQuery, useQueryClient, type QueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useApiClient } from '../../api/apiContext';
import { accountQueryKey } from '../../session/queries';
import { chargesQueryKey } from './topUp';

export const paymentSourceQueryKey = (accountId: string) => ['accounts', accountId, 'paymentsource'] as const;
export const planStatusQueryKey = (accountId: string) => ['accounts', accountId, 'plan'] as const;
export const planCatalogQueryKey = (accountId: string) => ['accounts', accountId, 'plans'] as const;
export const invoicesQueryKey = (accountId: string) => ['accounts', accountId, 'invoices'] as const;

export interface PaymentSourceAnswer {
  paymentSource: PaymentSource | null;
  provider: 'sandbox' | 'stripe';
}

/** GET .../paymentsource: the card on file (or null, 'No Payment Setup') and which provider takes cards. */
export const usePaymentSource = (accountId: string): UseQueryResult<PaymentSourceAnswer> => {
  const api = useApiClient();
  return useQuery({
    queryKey: paymentSourceQueryKey(accountId),
    queryFn: async ({ signal }) => (await api.get<{ data: PaymentSourceAnswer }>(`/v1/accounts/${accountId}/paymentsource`, { signal })).data,
  });
};

/** A plan change awaited: GET .../plan is asked again every few seconds until the account is on `planId`, until `until`. */
export interface PlanFollow {
  planId: string;
  until: number;
}

export const PLAN_FOLLOW_MS = 2_000;

/** The refetch interval while a plan change awaits the provider's confirmation, like the balance's after a top-up. */
export const planRefetchInterval = (follow: PlanFollow | null, planId: string | undefined, now: number): number | false =>
  follow !== null && now < follow.until && planId !== follow.planId ? PLAN_FOLLOW_MS : false;

/** GET .../plan: the plan and its subscription (next bill date); followed while a change is awaited. */
export const usePlanStatus = (accountId: string, follow: PlanFollow | null = null): UseQueryResult<AccountPlanStatus> => {
  const api = useApiClient();
  return useQuery({
    queryKey: planStatusQueryKey(accountId),
    queryFn: async ({ signal }) => (await api.get<{ data: AccountPlanStatus }>(`/v1/accounts/${accountId}/plan`, { signal })).data,
    refetchInterval: (query) => planRefetchInterval(follow, query.state.data?.plan.id, Date.now()),
  });
};

/** GET .../plans: the catalog (Trial and free plans hidden by the server), all of it: a handful of plans. */
export const usePlanCatalog = (accountId: string): UseQueryResult<{ data: CatalogPlan[]; pagination: Pagination }> => {
  const api = useApiClient();
  return useQuery({
    queryKey: planCatalogQueryKey(accountId),
    queryFn: ({ signal }) =>
      api.get<{ data: CatalogPlan[]; pagination: Pagination }>(`/v1/accounts/${accountId}/plans`, { query: { limit: 100 }, signal }),
  });
};

/** GET .../invoices?limit=50: the newest 50, paged in the browser by 5 or 10. */
export const useInvoices = (accountId: string): UseQueryResult<{ data: Invoice[]; pagination: Pagination }> => {
  const api = useApiClient();
  return useQuery({
    queryKey: invoicesQueryKey(accountId),
    queryFn: ({ signal }) => api.get<{ data: Invoice[]; pagination: Pagination }>(`/v1/accounts/${accountId}/invoices`, { query: { limit: 50 }, signal }),
  });
};

/**
 * Reset Cache: what this page keeps of the account's plan and prices (the account, its plan and subscription,
 * the catalog, the card, invoices and charges) is marked stale and asked again, what is on screen at once
 * (docs/decisions.md). What is shown stays until the fresh answer replaces it.
 */
export const resetBillingCache = async (queryClient: QueryClient, accountId: string): Promise<void> => {
  // The account itself exactly (its key is the prefix of everything the account holds); the rest with their pages.
  await queryClient.invalidateQueries({ queryKey: accountQueryKey(accountId), exact: true });
  const keys = [
    planStatusQueryKey(accountId),
    planCatalogQueryKey(accountId),
    paymentSourceQueryKey(accountId),
    invoicesQueryKey(accountId),
    chargesQueryKey(accountId),
  ];
  await Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
};

export const useResetBillingCache = (accountId: string): (() => Promise<void>) => {
  const queryClient = useQueryClient();
  return () => resetBillingCache(queryClient, accountId);
};
