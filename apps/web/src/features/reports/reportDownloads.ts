import type { MessagesReportAccepted } from '@parley/shared';
import { useMutation } from '@tanstack/react-query';
import { useApiClient } from '../../api/apiContext';
import { saveBlob } from '../../components/saveBlob';

/** Hands CSV text to the browser as a file download. */
export function saveCsv(text: string, fileName: string): void {
  saveBlob(new Blob([text], { type: 'text/csv;charset=utf-8' }), fileName);
}

const today = (): string => new Date().toISOString().slice(0, 10);

/** The CSV reports answered at once: Summary (reports/dailycounts, the last 90 days) and Opted Out (reports/optout). */
export const reportDownloads = {
  summary: { path: 'dailycounts', fileName: () => `summary-${today()}.csv` },
  optOut: { path: 'optout', fileName: () => `opted-out-${today()}.csv` },
} as const;

export type ReportDownload = keyof typeof reportDownloads;

export const useDownloadReport = (accountId: string) => {
  const api = useApiClient();
  return useMutation({
    mutationFn: async (report: ReportDownload) => {
      const { path, fileName } = reportDownloads[report];
      saveCsv(await api.get<string>(`/v1/accounts/${accountId}/reports/${path}`), fileName());
    },
  });
};

/** GET reports/messages?email=: the detailed report is made in the background and its link e-mailed. */
export const useRequestDetailedReport = (accountId: string) => {
  const api = useApiClient();
  return useMutation({
    mutationFn: async (email: string) =>
      (await api.get<{ data: MessagesReportAccepted }>(`/v1/accounts/${accountId}/reports/messages`, { query: { email } })).data,
  });
};
