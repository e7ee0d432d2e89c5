import type {
  FeatureBoardToken,
  FeatureComment,
  FeatureCommentInput,
  FeatureRequest,
  FeatureRequestSort,
  FeatureRequestStatus,
  FeatureRequestUpdate,
  NewFeatureRequest,
  Pagination,
} from '@parley/shared';
import { useMutation, useQuery, useQueryClient, type QueryKey, type UseQueryResult } from '@tanstack/react-query';
import { useApiClient } from '../../api/apiContext';
import { applyVote } from './voteUpdate';

export interface Page<T> {
  data: T[];
  pagination: Pagination;
}

export interface BoardFilter {
  sort: FeatureRequestSort;
  status: FeatureRequestStatus | null;
  search: string;
  offset: number;
}

export const BOARD_PAGE_SIZE = 20;
const base = '/v1/featurerequests';
const boardKey = ['featureRequests'] as const;
const commentsKey = (id: string) => ['featureRequestComments', id] as const;

/** POST /v1/featurerequests/token: the sign-on token the page waits for (product.md, "/featurerequests"). */
export const useBoardToken = (): UseQueryResult<FeatureBoardToken> => {
  const api = useApiClient();
  return useQuery({
    queryKey: ['featureBoardToken'],
    queryFn: async ({ signal }) => (await api.post<{ data: FeatureBoardToken }>(`${base}/token`, undefined, { signal })).data,
    // The token lasts five minutes: a page opened again later asks for a fresh one.
    staleTime: 60_000,
    gcTime: 60_000,
  });
};

export const useFeatureRequests = (filter: BoardFilter): UseQueryResult<Page<FeatureRequest>> => {
  const api = useApiClient();
  return useQuery({
    queryKey: [...boardKey, 'list', filter],
    queryFn: ({ signal }) =>
      api.get<Page<FeatureRequest>>(base, {
        query: {
          sort: filter.sort,
          limit: BOARD_PAGE_SIZE,
          offset: filter.offset,
          ...(filter.status === null ? {} : { status: filter.status }),
          ...(filter.search.trim() === '' ? {} : { search: filter.search.trim() }),
        },
        signal,
      }),
    placeholderData: (previous) => previous,
  });
};

export const useFeatureRequest = (id: string): UseQueryResult<FeatureRequest> => {
  const api = useApiClient();
  return useQuery({
    queryKey: [...boardKey, 'post', id],
    queryFn: async ({ signal }) => (await api.get<{ data: FeatureRequest }>(`${base}/${id}`, { signal })).data,
  });
};

export const useFeatureComments = (id: string): UseQueryResult<Page<FeatureComment>> => {
  const api = useApiClient();
  return useQuery({
    queryKey: commentsKey(id),
    queryFn: ({ signal }) => api.get<Page<FeatureComment>>(`${base}/${id}/comments`, { query: { limit: 100 }, signal }),
  });
};

const useRefreshBoard = () => {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: boardKey });
};

export const usePostFeatureRequest = () => {
  const api = useApiClient();
  const refresh = useRefreshBoard();
  return useMutation({
    mutationFn: async (body: NewFeatureRequest) => (await api.post<{ data: FeatureRequest }>(base, body)).data,
    onSuccess: refresh,
  });
};

export const useUpdateFeatureRequest = (id: string) => {
  const api = useApiClient();
  const refresh = useRefreshBoard();
  return useMutation({
    mutationFn: async (body: FeatureRequestUpdate) => (await api.put<{ data: FeatureRequest }>(`${base}/${id}`, body)).data,
    onSuccess: refresh,
  });
};

export const useRemoveFeatureRequest = () => {
  const api = useApiClient();
  const refresh = useRefreshBoard();
  return useMutation({ mutationFn: (id: string) => api.delete(`${base}/${id}`), onSuccess: refresh });
};

/**
 * A vote or its withdrawal, shown at once in every cached answer of the board, and rolled back when the
 * server refuses it.
 */
export const useVote = () => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, voted }: { id: string; voted: boolean }) =>
      voted ? api.put(`${base}/${id}/vote`) : api.delete(`${base}/${id}/vote`),
    onMutate: async ({ id, voted }) => {
      await queryClient.cancelQueries({ queryKey: boardKey });
      const before: [QueryKey, unknown][] = queryClient.getQueriesData({ queryKey: boardKey });
      queryClient.setQueriesData({ queryKey: boardKey }, (answer: unknown) => applyVote(answer, id, voted));
      return { before };
    },
    onError: (_error, _vote, context) => {
      for (const [key, answer] of context?.before ?? []) queryClient.setQueryData(key, answer);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: boardKey }),
  });
};

export const useAddComment = (id: string) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: FeatureCommentInput) => (await api.post<{ data: FeatureComment }>(`${base}/${id}/comments`, body)).data,
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: commentsKey(id) }), queryClient.invalidateQueries({ queryKey: boardKey })]),
  });
};

export const useRemoveComment = (id: string) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (commentId: string) => api.delete(`${base}/${id}/comments/${commentId}`),
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: commentsKey(id) }), queryClient.invalidateQueries({ queryKey: boardKey })]),
  });
};
