import type { AccountTag, Contact, CreateContactInput, ListRecord, Pagination } from '@parley/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useApiClient } from '../../api/apiContext';
import type { QueryValue } from '../../api/client';
import { createdRecord } from '../../api/createdRecord';

/** Every contact query of an account starts with this key (the lists' contact search too). */
export const contactsQueryKey = (accountId: string) => ['accounts', accountId, 'contacts'] as const;
const tagsQueryKey = (accountId: string) => ['accounts', accountId, 'tags'] as const;
const attributesQueryKey = (accountId: string) => ['accounts', accountId, 'attributes'] as const;

export interface ContactPage {
  data: Contact[];
  pagination: Pagination;
}

/** One page of the table; the previous page stays on screen while the next loads. */
export const useContactPage = (accountId: string, query: Record<string, QueryValue>): UseQueryResult<ContactPage> => {
  const api = useApiClient();
  return useQuery({
    queryKey: [...contactsQueryKey(accountId), 'page', query],
    queryFn: ({ signal }) => api.get<ContactPage>(`/v1/accounts/${accountId}/contacts`, { query, signal }),
    placeholderData: keepPreviousData,
  });
};

/** GET tags?prefix=: up to 10 suggestions. */
export const useTagSuggestions = (accountId: string, prefix: string, enabled: boolean): UseQueryResult<string[]> => {
  const api = useApiClient();
  return useQuery({
    queryKey: [...tagsQueryKey(accountId), prefix],
    enabled,
    queryFn: async ({ signal }) =>
      (await api.get<{ data: AccountTag[] }>(`/v1/accounts/${accountId}/tags`, { query: { prefix, limit: 10 }, signal })).data.map(
        (t) => t.tag,
      ),
    staleTime: 30_000,
  });
};

/** GET attributes: the names of the account's custom attributes. */
export const useAttributeNames = (accountId: string): UseQueryResult<string[]> => {
  const api = useApiClient();
  return useQuery({
    queryKey: attributesQueryKey(accountId),
    queryFn: async ({ signal }) =>
      (await api.get<{ data: { name: string }[] }>(`/v1/accounts/${accountId}/attributes`, { query: { v: 1 }, signal })).data.map(
        (a) => a.name,
      ),
  });
};

/** GET lists, for the table's list filter (the 100 newest). */
export const useListOptions = (accountId: string): UseQueryResult<ListRecord[]> => {
  const api = useApiClient();
  return useQuery({
    queryKey: ['accounts', accountId, 'lists', 'options'],
    queryFn: async ({ signal }) =>
      (await api.get<{ data: ListRecord[] }>(`/v1/accounts/${accountId}/lists`, { query: { limit: 100 }, signal })).data,
  });
};

/** After a change, the table, the tag suggestions and the attribute names may all have moved. */
const useInvalidateContacts = (accountId: string) => {
  const queryClient = useQueryClient();
  return async (): Promise<void> => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: contactsQueryKey(accountId) }),
      queryClient.invalidateQueries({ queryKey: tagsQueryKey(accountId) }),
      queryClient.invalidateQueries({ queryKey: attributesQueryKey(accountId) }),
    ]);
  };
};

/** POST (new) or PUT (existing) a contact. */
export const useSaveContact = (accountId: string, contactId: string | null) => {
  const api = useApiClient();
  const invalidate = useInvalidateContacts(accountId);
  return useMutation({
    mutationFn: async (body: CreateContactInput) =>
      contactId === null
        ? createdRecord(await api.post<{ success: boolean; data: Contact[] }>(`/v1/accounts/${accountId}/contacts`, body))
        : (await api.put<{ data: Contact }>(`/v1/accounts/${accountId}/contacts/${contactId}`, body)).data,
    onSuccess: invalidate,
  });
};

export const useBlockContact = (accountId: string) => {
  const api = useApiClient();
  const invalidate = useInvalidateContacts(accountId);
  return useMutation({
    mutationFn: async (contactId: string) =>
      (await api.put<{ data: Contact }>(`/v1/accounts/${accountId}/contacts/${contactId}/block`, {})).data,
    onSuccess: invalidate,
  });
};

export const useRemoveContact = (accountId: string) => {
  const api = useApiClient();
  const invalidate = useInvalidateContacts(accountId);
  return useMutation({
    mutationFn: (contactId: string) => api.delete(`/v1/accounts/${accountId}/contacts/${contactId}`),
    onSuccess: invalidate,
  });
};

/** POST contacts/remove; the caller refreshes the table (1 s later). */
export const useRemoveContacts = (accountId: string) => {
  const api = useApiClient();
  return useMutation({
    mutationFn: async (ids: string[]) =>
      (await api.post<{ data: { removed: number } }>(`/v1/accounts/${accountId}/contacts/remove`, { ids })).data.removed,
  });
};

export const useInvalidateContactQueries = useInvalidateContacts;

/** GET contacts?format=csv with the table's filters, handed to the browser as a file. */
export const useDownloadContacts = (accountId: string) => {
  const api = useApiClient();
  return useMutation({
    mutationFn: async (query: Record<string, QueryValue>) => {
      const text = await api.get<string>(`/v1/accounts/${accountId}/contacts`, { query: { ...query, format: 'csv' } });
      const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = `contacts-${new Date().toISOString().slice(0, 10)}.csv`;
      document.body.append(link);
      link.click();
      link.remove();
      // The click has handed the file over; the URL is no longer needed.
      setTimeout(() => {
        URL.revokeObjectURL(url);
      }, 0);
    },
  });
};
