import crypto from 'node:crypto';
import type { HubSpotPeerState, PeerCommunication, PeerContact } from './hubspotPeerState.js';

export interface PeerAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

const validationError = (message: string): PeerAnswer => ({ status: 400, body: { status: 'error', message, correlationId: crypto.randomUUID(), category: 'VALIDATION_ERROR' } });

/** Reads `after`/`limit` as HubSpot does: `after` is the index to start at, as a string. */
function pageOf<T>(items: T[], url: URL, maxLimit: number): { page: T[]; next: string | null } {
  const start = Number(url.searchParams.get('after') ?? '0');
  const limit = Math.min(Number(url.searchParams.get('limit') ?? '10'), maxLimit);
  const page = items.slice(start, start + limit);
  return { page, next: start + limit < items.length ? String(start + limit) : null };
}

const paging = (url: URL, next: string | null): Record<string, unknown> =>
  next === null ? {} : { paging: { next: { after: next, link: `${url.origin}${url.pathname}?after=${next}` } } };

function contactsPage(peer: HubSpotPeerState, url: URL): PeerAnswer {
  // HubSpot takes `properties` repeated or comma-separated, and answers only those asked for.
  const asked = url.searchParams.getAll('properties').flatMap((value) => value.split(','));
  const { page, next } = pageOf(peer.contacts, url, 100);
  const shown = (contact: PeerContact): Record<string, unknown> => ({
    id: contact.id,
    properties: Object.fromEntries(asked.map((name) => [name, contact.properties[name] ?? null])),
    createdAt: contact.createdAt,
    updatedAt: contact.updatedAt,
    archived: false,
  });
  return { status: 200, body: { results: page.map(shown), ...paging(url, next) } };
}

/** CRM v3 search with HubSpot's EQ filters: filters in a group ANDed, groups ORed. */
function searchContacts(peer: HubSpotPeerState, body: unknown): PeerAnswer {
  const request = body as { filterGroups?: { filters: { propertyName: string; operator: string; value?: string }[] }[]; properties?: string[]; limit?: number };
  const groups = request.filterGroups ?? [];
  if (groups.some((g) => g.filters.some((f) => f.operator !== 'EQ'))) return validationError('The peer knows only the EQ operator');
  const matches = (contact: PeerContact): boolean => groups.length === 0 || groups.some((g) => g.filters.every((f) => contact.properties[f.propertyName] === f.value));
  const found = peer.contacts.filter(matches).slice(0, Math.min(request.limit ?? 10, 200));
  const asked = request.properties ?? ['firstname', 'lastname', 'email'];
  const results = found.map((c) => ({ id: c.id, properties: Object.fromEntries(asked.map((name) => [name, c.properties[name] ?? null])), createdAt: c.createdAt, updatedAt: c.updatedAt, archived: false }));
  return { status: 200, body: { total: found.length, results } };
}

function createContact(peer: HubSpotPeerState, body: unknown): PeerAnswer {
  const properties = (body as { properties?: Record<string, string> }).properties;
  if (properties === undefined) return validationError('Invalid input JSON: properties is required');
  const email = properties.email;
  if (email !== undefined && peer.contacts.some((c) => c.properties.email === email)) {
    return { status: 409, body: { status: 'error', message: 'Contact already exists. Existing ID: 1', category: 'CONFLICT', correlationId: crypto.randomUUID() } };
  }
  const contact = peer.addContact(properties);
  return { status: 201, body: { id: contact.id, properties: contact.properties, createdAt: contact.createdAt, updatedAt: contact.updatedAt, archived: false } };
}

function searchLists(peer: HubSpotPeerState, body: unknown): PeerAnswer {
  const request = body as { offset?: number; count?: number; query?: string };
  const offset = request.offset ?? 0;
  const count = Math.min(request.count ?? 20, 500);
  const matching = peer.lists.filter((list) => list.name.toLowerCase().includes((request.query ?? '').toLowerCase()));
  const page = matching.slice(offset, offset + count);
  const lists = page.map((list) => ({
    listId: list.listId,
    name: list.name,
    objectTypeId: list.objectTypeId,
    processingType: 'MANUAL',
    processingStatus: 'COMPLETE',
    listVersion: 1,
    additionalProperties: { hs_list_size: String(list.members.length) },
  }));
  return { status: 200, body: { lists, offset: offset + page.length, hasMore: offset + page.length < matching.length, total: matching.length } };
}

function memberships(peer: HubSpotPeerState, listId: string, url: URL): PeerAnswer {
  const list = peer.lists.find((l) => l.listId === listId);
  if (list === undefined) return { status: 404, body: { status: 'error', message: `List ${listId} not found`, category: 'OBJECT_NOT_FOUND', correlationId: crypto.randomUUID() } };
  const { page, next } = pageOf(list.members, url, 250);
  return { status: 200, body: { results: page.map((recordId) => ({ recordId, membershipTimestamp: new Date().toISOString() })), total: list.members.length, ...paging(url, next) } };
}

function createCommunication(peer: HubSpotPeerState, body: unknown, token: string): PeerAnswer {
  const request = body as Partial<Pick<PeerCommunication, 'properties' | 'associations'>>;
  const properties = request.properties ?? {};
  if (!['SMS', 'WHATS_APP', 'LINKEDIN_MESSAGE'].includes(properties.hs_communication_channel_type ?? '')) return validationError('Property values were not valid: hs_communication_channel_type');
  if (properties.hs_communication_logged_from !== 'CRM') return validationError('Property values were not valid: hs_communication_logged_from');
  for (const association of request.associations ?? []) {
    if (!peer.contacts.some((c) => c.id === association.to.id)) return validationError(`One or more associations are invalid: contact ${association.to.id} does not exist`);
  }
  const communication = { id: peer.id(), properties, associations: request.associations ?? [], token };
  peer.communications.push(communication);
  const now = new Date().toISOString();
  return { status: 201, body: { id: communication.id, properties, createdAt: now, updatedAt: now, archived: false } };
}

/** The CRM v3 endpoints the adapter calls, for a good token. */
export function answerCrm(peer: HubSpotPeerState, method: string, url: URL, text: string, token: string): PeerAnswer {
  let body: unknown;
  try {
    body = text === '' ? {} : (JSON.parse(text) as unknown);
  } catch {
    return validationError('Invalid input JSON');
  }
  const path = url.pathname;
  if (method === 'GET' && path === '/crm/v3/objects/contacts') return contactsPage(peer, url);
  if (method === 'POST' && path === '/crm/v3/objects/contacts') return createContact(peer, body);
  if (method === 'POST' && path === '/crm/v3/objects/contacts/search') return searchContacts(peer, body);
  if (method === 'POST' && path === '/crm/v3/lists/search') return searchLists(peer, body);
  const members = /^\/crm\/v3\/lists\/([^/]+)\/memberships$/.exec(path);
  if (method === 'GET' && members?.[1] !== undefined) return memberships(peer, members[1], url);
  if (method === 'POST' && path === '/crm/v3/objects/communications') return createCommunication(peer, body, token);
  return { status: 404, body: { status: 'error', message: `no such endpoint: ${method} ${path}`, correlationId: crypto.randomUUID() } };
}
