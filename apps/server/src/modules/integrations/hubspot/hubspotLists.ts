import { ListSearchRequest } from '@hubspot/api-client/lib/codegen/crm/lists/index.js';
import { configuredMiddleware, type HubSpotConnection, hubspotClient } from './hubspotClient.js';
import { callHubSpot } from './hubspotErrors.js';
import type { HubSpotPage } from './hubspotApi.js';

/*
 * HubSpot lists become Parley tags (docs/integrations-hubspot.md, "Lists as tags"): the lists API v3 finds
 * the contact lists (search, paged by offset) and pages each list's members (by `after` cursor).
 */

/** HubSpot's object type id of contacts: a list of another object is no tag of a contact. */
export const HUBSPOT_CONTACT_OBJECT_TYPE = '0-1';

export interface HubSpotList {
  id: string;
  name: string;
}

/** A page of lists and the offset of the next one (null on the last page). */
export interface HubSpotListPage {
  items: HubSpotList[];
  nextOffset: number | null;
}

export const HUBSPOT_LISTS_PAGE_MAX = 500;
export const HUBSPOT_MEMBERS_PAGE_MAX = 250;

/** A page of the account's contact lists from an offset (0: the first). */
export async function pageHubSpotLists(connection: HubSpotConnection, offset: number, count = HUBSPOT_LISTS_PAGE_MAX): Promise<HubSpotListPage> {
  const api = hubspotClient(connection).crm.lists.listsApi;
  const page = await callHubSpot(() => api.doSearch(Object.assign(new ListSearchRequest(), { offset, count, query: '' }), configuredMiddleware()));
  const items = page.lists.filter((list) => list.objectTypeId === HUBSPOT_CONTACT_OBJECT_TYPE).map((list) => ({ id: list.listId, name: list.name }));
  return { items, nextOffset: page.hasMore ? page.offset : null };
}

/** A page of a list's members (HubSpot contact ids) after a cursor (null: the first page). */
export async function pageHubSpotListMembers(connection: HubSpotConnection, listId: string, after: string | null, limit = HUBSPOT_MEMBERS_PAGE_MAX): Promise<HubSpotPage<string>> {
  const api = hubspotClient(connection).crm.lists.membershipsApi;
  const page = await callHubSpot(() => api.getPage(listId, after ?? undefined, undefined, limit, configuredMiddleware()));
  return { items: page.results.map((member) => member.recordId), after: page.paging?.next?.after ?? null };
}
