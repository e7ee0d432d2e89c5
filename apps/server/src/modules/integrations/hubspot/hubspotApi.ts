import { AssociationTypes } from '@hubspot/api-client';
import {
  SimplePublicObjectInputForCreate as ContactInput,
  Filter,
  FilterGroup,
  FilterOperatorEnum,
  PublicObjectSearchRequest,
  type SimplePublicObject,
  type SimplePublicObjectWithAssociations,
} from '@hubspot/api-client/lib/codegen/crm/contacts/index.js';
import {
  AssociationSpec,
  AssociationSpecAssociationCategoryEnum,
  SimplePublicObjectInputForCreate as CommunicationInput,
  PublicAssociationsForObject,
  PublicObjectId,
} from '@hubspot/api-client/lib/codegen/crm/objects/communications/index.js';
import { configuredMiddleware, type HubSpotConnection, hubspotClient } from './hubspotClient.js';
import { callHubSpot } from './hubspotErrors.js';
import type { HubSpotPhoneProperty } from './hubspotMobile.js';

/** The contact properties a sync reads. */
export const hubspotContactProperties = ['firstname', 'lastname', 'email', 'phone', 'mobilephone', 'hs_lastmodifieddate'] as const;
type ContactProperty = (typeof hubspotContactProperties)[number];

/** A HubSpot contact as the sync sees it: its id and the properties above (null when HubSpot holds none). */
export interface HubSpotContact {
  id: string;
  properties: Record<ContactProperty, string | null>;
}

/** One page and the cursor of the next (null on the last page). */
export interface HubSpotPage<T> {
  items: T[];
  after: string | null;
}

/** HubSpot's largest page of contacts. */
export const HUBSPOT_CONTACTS_PAGE_MAX = 100;

function contactOf(record: SimplePublicObjectWithAssociations | SimplePublicObject): HubSpotContact {
  const value = (name: ContactProperty): string | null => {
    const held = record.properties[name];
    return typeof held === 'string' && held !== '' ? held : null;
  };
  const properties = Object.fromEntries(hubspotContactProperties.map((name) => [name, value(name)])) as Record<ContactProperty, string | null>;
  return { id: record.id, properties };
}

/** A page of contacts after a cursor (null: the first page), as HubSpot's CRM v3 contacts API pages them. */
export async function pageHubSpotContacts(connection: HubSpotConnection, after: string | null, limit = HUBSPOT_CONTACTS_PAGE_MAX): Promise<HubSpotPage<HubSpotContact>> {
  const api = hubspotClient(connection).crm.contacts.basicApi;
  const page = await callHubSpot(() => api.getPage(limit, after ?? undefined, [...hubspotContactProperties], undefined, undefined, false, configuredMiddleware()));
  return { items: page.results.map(contactOf), after: page.paging?.next?.after ?? null };
}

/** At most this many contacts come back from a search by number (a number is one contact's, seldom more). */
const SEARCH_LIMIT = 10;

/**
 * The contacts whose phone properties (of the option) hold exactly this number (CRM v3 search: one filter
 * group per property, which HubSpot ORs). The caller checks the numbers again, normalised.
 */
export async function searchHubSpotContactsByPhone(connection: HubSpotConnection, phone: string, properties: readonly HubSpotPhoneProperty[]): Promise<HubSpotContact[]> {
  const filterGroups = properties.map((propertyName) =>
    Object.assign(new FilterGroup(), { filters: [Object.assign(new Filter(), { propertyName, operator: FilterOperatorEnum.Eq, value: phone })] }),
  );
  const request = Object.assign(new PublicObjectSearchRequest(), { filterGroups, properties: [...hubspotContactProperties], limit: SEARCH_LIMIT });
  const api = hubspotClient(connection).crm.contacts.searchApi;
  const found = await callHubSpot(() => api.doSearch(request, configuredMiddleware()));
  return found.results.map(contactOf);
}

/** A Parley contact pushed to HubSpot: its mobile goes to the option's first property. */
export interface NewHubSpotContact {
  mobile: string;
  mobileProperty: HubSpotPhoneProperty;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
}

/** Creates the contact in HubSpot; answers its HubSpot id. */
export async function createHubSpotContact(connection: HubSpotConnection, contact: NewHubSpotContact): Promise<{ id: string }> {
  const properties: Record<string, string> = { [contact.mobileProperty]: contact.mobile };
  if (contact.firstName !== null && contact.firstName !== '') properties.firstname = contact.firstName;
  if (contact.lastName !== null && contact.lastName !== '') properties.lastname = contact.lastName;
  if (contact.email !== null && contact.email !== '') properties.email = contact.email;
  const api = hubspotClient(connection).crm.contacts.basicApi;
  const created = await callHubSpot(() => api.create(Object.assign(new ContactInput(), { properties, associations: [] }), configuredMiddleware()));
  return { id: created.id };
}

/** A message for the contact's timeline. */
export interface HubSpotTimelineMessage {
  contactId: string;
  /** What the timeline shows (the framework writes the direction and numbers into it). */
  body: string;
  at: Date;
}

/**
 * Logs a message on the contact's timeline as an SMS Communication (HubSpot's CRM v3 communications,
 * associated to the contact with HubSpot's communication-to-contact type). Answers the communication's id.
 */
export async function logHubSpotCommunication(connection: HubSpotConnection, message: HubSpotTimelineMessage): Promise<{ id: string }> {
  const api = hubspotClient(connection).crm.objects.communications.basicApi;
  const association = Object.assign(new PublicAssociationsForObject(), {
    to: Object.assign(new PublicObjectId(), { id: message.contactId }),
    types: [Object.assign(new AssociationSpec(), { associationCategory: AssociationSpecAssociationCategoryEnum.HubspotDefined, associationTypeId: AssociationTypes.communicationToContact })],
  });
  const properties = {
    hs_communication_channel_type: 'SMS',
    hs_communication_logged_from: 'CRM',
    hs_communication_body: message.body,
    hs_timestamp: message.at.toISOString(),
  };
  const created = await callHubSpot(() => api.create(Object.assign(new CommunicationInput(), { properties, associations: [association] }), configuredMiddleware()));
  return { id: created.id };
}
