import type { CampaignExecution, CampaignJobReport } from '@parley/shared';
import { useMutation, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useApiClient } from '../../api/apiContext';
import { campaignsQueryKey } from './queries';

const reportPath = (accountId: string, jobId: string) => `/v1/accounts/${accountId}/reports/campaign/${jobId}`;

/** GET .../reports/campaign/{id}: the Message Report of an execution; followed while it is still sending. */
export const useCampaignJobReport = (accountId: string, jobId: string): UseQueryResult<CampaignJobReport> => {
  const api = useApiClient();
  return useQuery({
    // Under the campaigns' key: whatever refreshes the executions refreshes their reports.
    queryKey: [...campaignsQueryKey(accountId), 'reports', jobId],
    queryFn: async ({ signal }) => (await api.get<{ data: CampaignJobReport }>(reportPath(accountId, jobId), { signal })).data,
    refetchInterval: (query) => (query.state.data?.job.status === 'running' ? 3000 : false),
  });
};

/** POST .../reports/campaign/{id}/resend: a new execution of the campaign for the failed recipients. */
export const useResendFailed = (accountId: string, jobId: string) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => (await api.post<{ data: CampaignExecution }>(`${reportPath(accountId, jobId)}/resend`)).data,
    // The campaign's executions (the new one first), its counts and the reports.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: campaignsQueryKey(accountId) }),
  });
};
