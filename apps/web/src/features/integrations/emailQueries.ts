import { PHONE_NUMBER_FETCH_LIMIT, type InboundMail, type Pagination, type PhoneNumber } from '@parley/shared';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useApiClient } from '../../api/apiContext';

/** How often the Email page's log is asked again: mail arrives without the page doing a thing. */
export const MAIL_LOG_REFRESH_MS = 5000;

/** GET .../integrations/email/mails: the latest mails, newest first. */
export const useInboundMails = (accountId: string, enabled: boolean): UseQueryResult<{ data: InboundMail[] }> => {
  const api = useApiClient();
  return useQuery({
    queryKey: ['accounts', accountId, 'integrations', 'email', 'mails'],
    queryFn: ({ signal }) => api.get<{ data: InboundMail[] }>(`/v1/accounts/${accountId}/integrations/email/mails`, { signal }),
    enabled,
    refetchInterval: MAIL_LOG_REFRESH_MS,
  });
};

/** The account's numbers, for the choice of the one texts go from. */
export const useSenderNumbers = (accountId: string): UseQueryResult<PhoneNumber[]> => {
  const api = useApiClient();
  return useQuery({
    queryKey: ['accounts', accountId, 'phoneNumbers', 'emailSenders'],
    queryFn: async ({ signal }) =>
      (await api.get<{ data: PhoneNumber[]; pagination: Pagination }>(`/v1/accounts/${accountId}/phonenumbers`, { query: { admin: true, limit: PHONE_NUMBER_FETCH_LIMIT }, signal })).data,
  });
};
