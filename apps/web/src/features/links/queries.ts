import { MAX_PAGE_LIMIT, type CustomDomain, type Link, type Pagination, type SaveLink } from '@parley/shared';
import { useMutation, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useApiClient } from '../../api/apiContext';

export interface Page<T> {
  data: T[];
  pagination: Pagination;
}

export interface Verification {
  data: CustomDomain;
  verified: boolean;
  message: string;
}

const linksKey = (accountId: string) => ['accounts', accountId, 'links'] as const;
const domainsKey = (accountId: string) => ['accounts', accountId, 'domains'] as const;
const linksBase = (accountId: string) => `/v1/accounts/${accountId}/links`;
const domainsBase = (accountId: string) => `/v1/accounts/${accountId}/domains`;

export const useLinks = (accountId: string): UseQueryResult<Page<Link>> => {
  const api = useApiClient();
  return useQuery({
    queryKey: linksKey(accountId),
    queryFn: ({ signal }) => api.get<Page<Link>>(linksBase(accountId), { query: { limit: MAX_PAGE_LIMIT }, signal }),
  });
};

export const useSaveLink = (accountId: string, id: string | null) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: SaveLink) =>
      id === null
        ? (await api.post<{ data: Link }>(linksBase(accountId), body)).data
        : (await api.put<{ data: Link }>(`${linksBase(accountId)}/${id}`, body)).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: linksKey(accountId) }),
  });
};

export const useRemoveLink = (accountId: string) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`${linksBase(accountId)}/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: linksKey(accountId) }),
  });
};

/** The account's custom domains; with `shared`, the deployment's shared domains. */
export const useDomains = (accountId: string, shared = false): UseQueryResult<Page<CustomDomain>> => {
  const api = useApiClient();
  return useQuery({
    queryKey: [...domainsKey(accountId), shared ? 'shared' : 'own'],
    queryFn: ({ signal }) =>
      api.get<Page<CustomDomain>>(domainsBase(accountId), { query: { limit: MAX_PAGE_LIMIT, ...(shared ? { shared: '1' } : {}) }, signal }),
  });
};

export const useAddDomain = (accountId: string) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (domain: string) => (await api.post<{ data: CustomDomain }>(domainsBase(accountId), { domain })).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: domainsKey(accountId) }),
  });
};

export const useVerifyDomain = (accountId: string) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.put<Verification>(`${domainsBase(accountId)}/verify`, { id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: domainsKey(accountId) }),
  });
};

export const useRemoveDomain = (accountId: string) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`${domainsBase(accountId)}/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: domainsKey(accountId) }),
  });
};

/** Verified while now is before renewAt (product.md, "Custom domain"). */
export const isVerified = (domain: CustomDomain, now = Date.now()): boolean => domain.renewAt !== null && Date.parse(domain.renewAt) > now;

/** GET links/{id}/tracking: the link's clicks by contact, handed to the browser as a CSV file. */
export const useDownloadTracking = (accountId: string) => {
  const api = useApiClient();
  return useMutation({
    mutationFn: async (link: Link) => {
      const text = await api.get<string>(`${linksBase(accountId)}/${link.id}/tracking`);
      const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
      const anchor = document.createElement('a');
      anchor.href = url;
      anchor.download = `contact-tracking-${link.code}.csv`;
      document.body.append(anchor);
      anchor.click();
      anchor.remove();
      // The click has handed the file over; the URL is no longer needed.
      setTimeout(() => {
        URL.revokeObjectURL(url);
      }, 0);
    },
  });
};
