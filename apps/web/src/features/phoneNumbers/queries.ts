import { PHONE_NUMBER_FETCH_LIMIT, type AvailableNumber, type Pagination, type PhoneNumber } from '@parley/shared';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useApiClient } from '../../api/apiContext';

export const phoneNumbersQueryKey = (accountId: string) => ['accounts', accountId, 'phoneNumbers'] as const;
export const availableNumbersQueryKey = (accountId: string, country: string) =>
  ['accounts', accountId, 'phoneNumbers', 'available', country] as const;

/** GET /v1/accounts/{acc}/phonenumbers (admin and limit params), oldest first. */
export const usePhoneNumbers = (accountId: string): UseQueryResult<PhoneNumber[]> => {
  const api = useApiClient();
  return useQuery({
    queryKey: phoneNumbersQueryKey(accountId),
    queryFn: async ({ signal }) =>
      (
        await api.get<{ data: PhoneNumber[]; pagination: Pagination }>(`/v1/accounts/${accountId}/phonenumbers`, {
          query: { admin: true, limit: PHONE_NUMBER_FETCH_LIMIT },
          signal,
        })
      ).data,
  });
};

/** GET /v1/accounts/{acc}/phonenumbers/available: the numbers for sale in a country. */
export const useAvailableNumbers = (accountId: string, country: string, enabled: boolean): UseQueryResult<AvailableNumber[]> => {
  const api = useApiClient();
  return useQuery({
    queryKey: availableNumbersQueryKey(accountId, country),
    enabled,
    // The inventory changes as others buy: always ask again when the dialog opens.
    staleTime: 0,
    queryFn: async ({ signal }) =>
      (
        await api.get<{ data: AvailableNumber[] }>(`/v1/accounts/${accountId}/phonenumbers/available`, {
          query: { country, limit: 20 },
          signal,
        })
      ).data,
  });
};
