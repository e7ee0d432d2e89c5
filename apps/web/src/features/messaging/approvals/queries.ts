import type { AcceptableHoursStatus, ApprovalResult, HeldMessage, Pagination } from '@parley/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useApiClient } from '../../../api/apiContext';

/* The messages quiet hours hold (GET/POST /v1/accounts/{acc}/approvals/acceptablehours). */

export interface HeldMessagePage {
  data: HeldMessage[];
  pagination: Pagination;
}

export const heldMessagesQueryKey = (accountId: string) => ['accounts', accountId, 'approvals', 'acceptablehours'] as const;

export const heldMessagesPath = (accountId: string) => `/v1/accounts/${accountId}/approvals/acceptablehours`;

/** One page of held messages, the soonest to go first (the grid pages on the server). */
export const useHeldMessages = (accountId: string, page: { page: number; pageSize: number }): UseQueryResult<HeldMessagePage> => {
  const api = useApiClient();
  return useQuery({
    queryKey: [...heldMessagesQueryKey(accountId), page],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) =>
      api.get<HeldMessagePage>(heldMessagesPath(accountId), { query: { limit: page.pageSize, offset: page.page * page.pageSize }, signal }),
  });
};

/** The body of an approval: the messages chosen, or none named (every held message). */
export const approvalBody = (selected: readonly string[]): { messageIds?: string[] } =>
  selected.length === 0 ? {} : { messageIds: [...selected] };

export type ApprovalAnswer = { data: ApprovalResult };

/** 'Message' or 'messages' by count, as the confirmation and the snackbar say it. */
export const messagesCount = (count: number): string => `${count} ${count === 1 ? 'message' : 'messages'}`;

/** When a held message will go on its own: in the viewer's time, and in the recipient's where it differs. */
export function goesAt(sendAfter: string, recipientZone: string, viewerZone?: string): string {
  const when = new Date(sendAfter);
  const local = when.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short', ...(viewerZone ? { timeZone: viewerZone } : {}) });
  const viewer = viewerZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (viewer === recipientZone) return local;
  try {
    const theirs = when.toLocaleString('en-US', { timeStyle: 'short', timeZone: recipientZone });
    return `${local} (${theirs} for the recipient)`;
  } catch {
    return local;
  }
}

export const heldCountKey = (accountId: string) => [...heldMessagesQueryKey(accountId), 'count'] as const;

/** How many messages quiet hours hold, for the side menu's Approvals entry; refreshed every minute. */
export const useHeldCount = (accountId: string | null, enabled: boolean): UseQueryResult<number> => {
  const api = useApiClient();
  return useQuery({
    queryKey: heldCountKey(accountId ?? ''),
    enabled: accountId !== null && enabled,
    refetchInterval: 60_000,
    queryFn: async ({ signal }) =>
      (await api.get<HeldMessagePage>(heldMessagesPath(accountId ?? ''), { query: { limit: 1, offset: 0 }, signal })).pagination.totalCount,
  });
};

export const acceptableHoursKey = (accountId: string, contactId: string) => ['accounts', accountId, 'contacts', contactId, 'acceptablehours'] as const;

/**
 * Whether a one-to-one message to the contact would go now (GET contacts/{id}/acceptablehours): kept a
 * minute, since the contact's local time moves on.
 */
export const useAcceptableHours = (accountId: string, contactId: string | null): UseQueryResult<AcceptableHoursStatus> => {
  const api = useApiClient();
  return useQuery({
    queryKey: acceptableHoursKey(accountId, contactId ?? ''),
    enabled: contactId !== null,
    staleTime: 30_000,
    refetchInterval: 60_000,
    queryFn: async ({ signal }) =>
      (await api.get<{ data: AcceptableHoursStatus }>(`/v1/accounts/${accountId}/contacts/${contactId ?? ''}/acceptablehours`, { signal })).data,
  });
};

/** Sends held messages now (POST approvals/acceptablehours); the held lists and counts are fetched again. */
export const useApproveHeld = (accountId: string) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: readonly string[]) => api.post<ApprovalAnswer>(heldMessagesPath(accountId), approvalBody(ids)),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: heldMessagesQueryKey(accountId) }),
        queryClient.invalidateQueries({ queryKey: ['accounts', accountId, 'messages'] }),
      ]);
    },
  });
};
