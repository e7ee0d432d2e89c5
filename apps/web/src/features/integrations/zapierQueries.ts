import type { WebhookSubscription } from '@parley/shared';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useApiClient } from '../../api/apiContext';

/** Where Zapier's REST-hook subscriptions point: the Zapier app subscribes Zaps there. */
export const ZAPIER_HOOKS_ORIGIN = 'https://hooks.zapier.com';

export const isZapierHook = (url: string): boolean => url.startsWith(`${ZAPIER_HOOKS_ORIGIN}/`);

/** GET .../webhooks (the public subscriptions API), only those Zapier's app made. */
export const useZapierSubscriptions = (accountId: string): UseQueryResult<WebhookSubscription[]> => {
  const api = useApiClient();
  return useQuery({
    queryKey: ['accounts', accountId, 'webhooks', 'zapier'],
    queryFn: async ({ signal }) =>
      (await api.get<{ data: WebhookSubscription[] }>(`/v1/accounts/${accountId}/webhooks`, { query: { limit: 100 }, signal })).data.filter((s) => isZapierHook(s.url)),
  });
};
