import type { ListMember, ListRecord, Pagination } from '@parley/shared';
import { keepPreviousData, useQuery, type QueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useApiClient } from '../../api/apiContext';

/*
 * Lists in the query cache. The side menu reads the account's lists (`listsQueryKey`); creating a list
 * adds it and raises pagination.totalCount by one (unless it was an edit of a list already there),
 * removing one takes it out and lowers the count by one, so the menu follows without a refetch.
 * This module stays free of zod: the side menu loads it with the first route.
 */

export interface ListPage {
  data: ListRecord[];
  pagination: Pagination;
}

/** The side menu links every list; an account with more than this many shows the first ones by name. */
export const MENU_LISTS_LIMIT = 100;

export const listsQueryKey = (accountId: string) => ['accounts', accountId, 'lists'] as const;
export const listQueryKey = (accountId: string, listId: string) => ['accounts', accountId, 'lists', listId] as const;
export const listMembersQueryKey = (accountId: string, listId: string) => ['accounts', accountId, 'lists', listId, 'members'] as const;

/** GET /v1/accounts/{acc}/lists?limit=100: the account's lists by name (null account: nothing to load). */
export const useLists = (accountId: string | null): UseQueryResult<ListPage> => {
  const api = useApiClient();
  return useQuery({
    queryKey: listsQueryKey(accountId ?? ''),
    enabled: accountId !== null,
    queryFn: ({ signal }) =>
      api.get<ListPage>(`/v1/accounts/${accountId ?? ''}/lists`, { query: { limit: MENU_LISTS_LIMIT }, signal }),
  });
};

export const useList = (accountId: string, listId: string): UseQueryResult<ListRecord> => {
  const api = useApiClient();
  return useQuery({
    queryKey: listQueryKey(accountId, listId),
    queryFn: async ({ signal }) =>
      (await api.get<{ data: ListRecord }>(`/v1/accounts/${accountId}/lists/${encodeURIComponent(listId)}`, { signal })).data,
  });
};

export interface MemberPage {
  data: ListMember[];
  pagination: Pagination;
}

/** GET .../lists/{listId}/contacts, one page at a time (the grid pages on the server). */
export const useListMembers = (
  accountId: string,
  listId: string,
  page: { page: number; pageSize: number },
): UseQueryResult<MemberPage> => {
  const api = useApiClient();
  return useQuery({
    queryKey: [...listMembersQueryKey(accountId, listId), page],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) =>
      api.get<MemberPage>(`/v1/accounts/${accountId}/lists/${encodeURIComponent(listId)}/contacts`, {
        query: { limit: page.pageSize, offset: page.page * page.pageSize },
        signal,
      }),
  });
};

const byName = (a: ListRecord, b: ListRecord): number =>
  a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) || a.id.localeCompare(b.id);

/** A saved list into the cached page: replaced when it was there (an edit), else added with totalCount + 1. */
export function listSaved(page: ListPage | undefined, list: ListRecord): ListPage | undefined {
  if (page === undefined) return undefined;
  const editing = page.data.some((l) => l.id === list.id);
  const data = editing ? page.data.map((l) => (l.id === list.id ? list : l)) : [...page.data, list];
  return {
    data: data.sort(byName),
    pagination: { ...page.pagination, totalCount: page.pagination.totalCount + (editing ? 0 : 1) },
  };
}

/** A removed list out of the cached page, with totalCount - 1. */
export function listRemoved(page: ListPage | undefined, listId: string): ListPage | undefined {
  if (page === undefined) return undefined;
  return {
    data: page.data.filter((l) => l.id !== listId),
    pagination: { ...page.pagination, totalCount: Math.max(0, page.pagination.totalCount - 1) },
  };
}

export function rememberSavedList(queryClient: QueryClient, accountId: string, list: ListRecord): void {
  queryClient.setQueryData<ListPage | undefined>(listsQueryKey(accountId), (page) => listSaved(page, list));
  queryClient.setQueryData(listQueryKey(accountId, list.id), list);
}

export function forgetRemovedList(queryClient: QueryClient, accountId: string, listId: string): void {
  queryClient.setQueryData<ListPage | undefined>(listsQueryKey(accountId), (page) => listRemoved(page, listId));
  queryClient.removeQueries({ queryKey: listQueryKey(accountId, listId) });
}
