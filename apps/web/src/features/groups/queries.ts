import { GROUP_FETCH_LIMIT, type Group, type Pagination } from '@parley/shared';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useApiClient } from '../../api/apiContext';

export const groupsQueryKey = (accountId: string) => ['accounts', accountId, 'groups'] as const;

export interface GroupPage {
  data: Group[];
  pagination: Pagination;
}

/** GET /v1/accounts/{acc}/groups?limit=100. */
export const useGroups = (accountId: string): UseQueryResult<GroupPage> => {
  const api = useApiClient();
  return useQuery({
    queryKey: groupsQueryKey(accountId),
    queryFn: ({ signal }) => api.get<GroupPage>(`/v1/accounts/${accountId}/groups`, { query: { limit: GROUP_FETCH_LIMIT }, signal }),
  });
};

/** A saved group into the cached page: replaced when it was there, else added with totalCount + 1. */
export function groupSaved(page: GroupPage | undefined, group: Group): GroupPage | undefined {
  if (page === undefined) return undefined;
  const editing = page.data.some((g) => g.id === group.id);
  const data = editing ? page.data.map((g) => (g.id === group.id ? group : g)) : [...page.data, group];
  data.sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) || a.id.localeCompare(b.id));
  return { data, pagination: { ...page.pagination, totalCount: page.pagination.totalCount + (editing ? 0 : 1) } };
}

export function groupRemoved(page: GroupPage | undefined, groupId: string): GroupPage | undefined {
  if (page === undefined) return undefined;
  return {
    data: page.data.filter((g) => g.id !== groupId),
    pagination: { ...page.pagination, totalCount: Math.max(0, page.pagination.totalCount - 1) },
  };
}
