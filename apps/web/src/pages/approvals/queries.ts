import type { ApprovalResult, HeldMessage, Pagination } from '@parley/shared';
import { keepPreviousData, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useApiClient } from '../../api/apiContext';

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
