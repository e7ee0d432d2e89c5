import type { ContactImport, ImportDefaults, ImportMapping, MergeStrategy } from '@parley/shared';
import { useMutation, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useApiClient } from '../../../api/apiContext';

/** How often the wizard asks for progress while the job runs. */
export const IMPORT_POLL_MS = 1000;

export interface UploadRequest {
  file: File;
  mapping: ImportMapping;
  defaults: ImportDefaults;
  mergeStrategy: MergeStrategy;
}

/** POST .../contacts/imports with the file as it is; mapping and defaults ride in the query. */
export const useUploadImport = (accountId: string) => {
  const api = useApiClient();
  return useMutation({
    mutationFn: async ({ file, mapping, defaults, mergeStrategy }: UploadRequest) =>
      (
        await api.post<{ data: ContactImport }>(`/v1/accounts/${accountId}/contacts/imports`, new Blob([file], { type: 'text/csv' }), {
          query: { fileName: file.name, mergeStrategy, mapping: JSON.stringify(mapping), defaults: JSON.stringify(defaults) },
        })
      ).data,
  });
};

const isRunning = (i: ContactImport | undefined): boolean => i === undefined || i.status === 'queued' || i.status === 'running';

/** GET .../contacts/imports/{id}, asked again every second until the import has finished. */
export const useContactImport = (accountId: string, importId: string | null): UseQueryResult<ContactImport> => {
  const api = useApiClient();
  return useQuery({
    queryKey: ['accounts', accountId, 'contactImports', importId],
    enabled: importId !== null,
    queryFn: async ({ signal }) =>
      (await api.get<{ data: ContactImport }>(`/v1/accounts/${accountId}/contacts/imports/${importId ?? ''}`, { signal })).data,
    refetchInterval: (query) => (isRunning(query.state.data) ? IMPORT_POLL_MS : false),
  });
};
