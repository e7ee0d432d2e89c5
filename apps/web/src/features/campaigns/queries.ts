import type {
  Campaign,
  CampaignExecution,
  CampaignFileRows,
  CampaignPreview,
  Pagination,
  SaveCampaignInput,
} from '@parley/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useApiClient } from '../../api/apiContext';

export interface CampaignPage {
  data: Campaign[];
  pagination: Pagination;
}

export interface CampaignExecutionPage {
  data: CampaignExecution[];
  pagination: Pagination;
}

export const campaignsQueryKey = (accountId: string) => ['accounts', accountId, 'campaigns'] as const;

const base = (accountId: string) => `/v1/accounts/${accountId}/campaigns`;

/** GET .../campaigns: one page, the most recently updated first; inactive ones only when asked. */
export const useCampaigns = (
  accountId: string,
  page: { offset: number; limit: number; showInactive: boolean },
): UseQueryResult<CampaignPage> => {
  const api = useApiClient();
  return useQuery({
    queryKey: [...campaignsQueryKey(accountId), 'list', page],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) =>
      api.get<CampaignPage>(base(accountId), {
        query: { offset: page.offset, limit: page.limit, showInactive: page.showInactive },
        signal,
      }),
  });
};

/** GET .../campaigns/{id}/jobs: a campaign's executions, newest first (the row a campaign expands into). */
export const useCampaignExecutions = (accountId: string, campaignId: string, limit: number): UseQueryResult<CampaignExecutionPage> => {
  const api = useApiClient();
  return useQuery({
    queryKey: [...campaignsQueryKey(accountId), campaignId, 'jobs', limit],
    queryFn: ({ signal }) => api.get<CampaignExecutionPage>(`${base(accountId)}/${campaignId}/jobs`, { query: { limit }, signal }),
    // An execution that is still sending grows its counts: follow it until it ends.
    refetchInterval: (query) => (query.state.data?.data.some((e) => e.status === 'running') === true ? 3000 : false),
  });
};

/** GET .../campaigns/{id}/preview: who would be texted now and at what estimated price. */
export const useCampaignPreview = (accountId: string, campaignId: string): UseQueryResult<CampaignPreview> => {
  const api = useApiClient();
  return useQuery({
    queryKey: [...campaignsQueryKey(accountId), campaignId, 'preview'],
    // The audience and the balance move: always ask again when the dialog opens.
    staleTime: 0,
    gcTime: 0,
    queryFn: async ({ signal }) => (await api.get<{ data: CampaignPreview }>(`${base(accountId)}/${campaignId}/preview`, { signal })).data,
  });
};

/** POST (new) or PUT (existing) a campaign; the list reloads after. */
export const useSaveCampaign = (accountId: string, id: string | null) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: SaveCampaignInput) =>
      id === null
        ? (await api.post<{ data: Campaign }>(base(accountId), body)).data
        : (await api.put<{ data: Campaign }>(`${base(accountId)}/${id}`, body)).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: campaignsQueryKey(accountId) }),
  });
};

export const useRemoveCampaign = (accountId: string) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`${base(accountId)}/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: campaignsQueryKey(accountId) }),
  });
};

/** POST .../execute: nothing for Manual and Scheduled, the file's rows for File Upload. */
export const useExecuteCampaign = (accountId: string, campaignId: string) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (rows: CampaignFileRows | null) =>
      (await api.post<{ data: CampaignExecution }>(`${base(accountId)}/${campaignId}/execute`, rows ?? undefined)).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: campaignsQueryKey(accountId) }),
  });
};
