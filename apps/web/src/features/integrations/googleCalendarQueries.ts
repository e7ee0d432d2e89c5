import type { GoogleCalendarList } from '@parley/shared';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useApiClient } from '../../api/apiContext';

/** GET .../integrations/googlecalendar/calendars: the connected Google account's calendars. */
export const useGoogleCalendars = (accountId: string, enabled: boolean): UseQueryResult<GoogleCalendarList['data']> => {
  const api = useApiClient();
  return useQuery({
    queryKey: ['accounts', accountId, 'integrations', 'googlecalendar', 'calendars'],
    queryFn: async ({ signal }) => (await api.get<GoogleCalendarList>(`/v1/accounts/${accountId}/integrations/googlecalendar/calendars`, { signal })).data,
    enabled,
  });
};
