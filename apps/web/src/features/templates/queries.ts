import {
  TEMPLATE_LIST_ALL,
  type Contact,
  type SaveTemplate,
  type Template,
  type TemplateList,
  type TemplateType,
  type TemplateWebhookLinks,
} from '@parley/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useApiClient } from '../../api/apiContext';
import { createdRecord } from '../../api/createdRecord';
import { contactsQueryKey } from '../contacts';

export const templatesQueryKey = (accountId: string) => ['accounts', accountId, 'templates'] as const;

const base = (accountId: string) => `/v1/accounts/${accountId}/templates`;

/**
 * GET .../templates?type=&name=&limit=0: every template of a type the user sees, by name (the table pages
 * them itself; the chooser searches by name). Whole templates: no `fields`, so each row is a Template.
 */
export const useTemplates = (accountId: string, type: TemplateType, name = ''): UseQueryResult<TemplateList> => {
  const api = useApiClient();
  return useQuery({
    queryKey: [...templatesQueryKey(accountId), type, name],
    queryFn: ({ signal }) => api.get<TemplateList>(base(accountId), { query: { type, name, limit: TEMPLATE_LIST_ALL }, signal }),
    placeholderData: keepPreviousData,
  });
};

/** POST (new) or PUT (existing) a template; every template list reloads after. */
export const useSaveTemplate = (accountId: string, id: string | null) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: SaveTemplate) =>
      id === null
        ? createdRecord(await api.post<{ success: boolean; data: Template[] }>(base(accountId), body))
        : (await api.put<{ data: Template }>(`${base(accountId)}/${id}`, body)).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templatesQueryKey(accountId) }),
  });
};

export const useRemoveTemplate = (accountId: string) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`${base(accountId)}/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templatesQueryKey(accountId) }),
  });
};

/** The account's first contact (the oldest), or null when it has none: the template editor counts for it. */
export const useFirstContact = (accountId: string): UseQueryResult<Contact | null> => {
  const api = useApiClient();
  return useQuery({
    queryKey: [...contactsQueryKey(accountId), 'first'],
    queryFn: async ({ signal }) =>
      (
        await api.get<{ data: Contact[] }>(`/v1/accounts/${accountId}/contacts`, {
          query: { limit: 1, orderBy: 'created-asc' },
          signal,
        })
      ).data[0] ?? null,
    staleTime: 60_000,
  });
};

/** GET .../templates/{id}/webhooks?user=&group=: a Web template's links, signed for that member and sender. */
export const useTemplateWebhookLinks = (accountId: string, templateId: string, user: string, group: string): UseQueryResult<TemplateWebhookLinks> => {
  const api = useApiClient();
  return useQuery({
    queryKey: [...templatesQueryKey(accountId), templateId, 'webhooks', user, group],
    queryFn: async ({ signal }) =>
      (await api.get<{ data: TemplateWebhookLinks }>(`${base(accountId)}/${templateId}/webhooks`, { query: { user, group }, signal })).data,
    staleTime: Infinity,
  });
};
