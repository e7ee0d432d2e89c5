import { and, eq, inArray } from 'drizzle-orm';
import { contactEmailTextSchema, contactTagSchema, INTEGRATION_NAMES, normaliseContactMobile, uniqueTags, type IntegrationKind } from '@parley/shared';
import type { Db, Tx } from '../../platform/db/client.js';
import { accounts, integrationContacts, type ContactRow } from '../../platform/db/schema/index.js';
import { createContact, findContact, findContactByMobile, updateContact } from '../contacts/index.js';
import type { ProviderContact, ProviderContactTags } from './connector.js';
import { linkedExternalId } from './contactLinks.js';
import { skip, type PageCounts } from './syncStore.js';

/*
 * Writes a provider's page into Parley (docs/integrations.md, "Sync and the conflict rule"): contacts are
 * matched by the link a sync made, else by normalised mobile; a new one is created, never a second one for a
 * number; a field is written only when Parley still holds what the last sync left there.
 */

export interface SyncTarget {
  accountId: string;
  kind: IntegrationKind;
  /** A tag put on every contact the sync brings in ('' for none). */
  importTag: string;
}

const SYNCED_FIELDS = ['firstName', 'lastName', 'email'] as const;
type SyncedField = (typeof SYNCED_FIELDS)[number];
type Fields = Record<SyncedField, string>;

export const NO_MOBILE_REASON = 'No mobile number';
export const INVALID_MOBILE_REASON = 'Invalid mobile number';
export const changedInParleyReason = (fields: readonly string[]): string => `Changed in Parley since the last sync (kept: ${fields.join(', ')})`;
export const sameMobileReason = (kind: IntegrationKind): string => `Another ${INTEGRATION_NAMES[kind]} contact has the same mobile`;
export const NOT_LINKED_REASON = 'Contact not synchronized yet: synchronize contacts first';

const fieldsOf = (row: ContactRow): Fields => ({ firstName: row.firstName, lastName: row.lastName, email: row.email ?? '' });
const providerFields = (item: ProviderContact): Fields => {
  const email = contactEmailTextSchema.safeParse(item.email);
  return { firstName: item.firstName.trim().slice(0, 100), lastName: item.lastName.trim().slice(0, 100), email: email.success ? (email.data ?? '') : '' };
};
const labelOf = (item: ProviderContact): string => `${item.firstName} ${item.lastName}`.trim() || item.email || item.phone || item.externalId;

interface Link {
  contactId: string;
  synced: Record<string, string>;
}

async function linksOf(tx: Tx, target: SyncTarget, externalIds: readonly string[]): Promise<Map<string, Link>> {
  if (externalIds.length === 0) return new Map();
  const rows = await tx
    .select({ externalId: integrationContacts.externalId, contactId: integrationContacts.contactId, synced: integrationContacts.synced })
    .from(integrationContacts)
    .where(and(eq(integrationContacts.accountId, target.accountId), eq(integrationContacts.kind, target.kind), inArray(integrationContacts.externalId, [...externalIds])));
  return new Map(rows.map((r) => [r.externalId, { contactId: r.contactId, synced: r.synced }]));
}

async function linkedElsewhere(tx: Tx, target: SyncTarget, contactId: string, externalId: string): Promise<boolean> {
  const linked = await linkedExternalId(tx, { accountId: target.accountId, kind: target.kind, contactId });
  return linked !== null && linked !== externalId;
}

async function saveLink(tx: Tx, target: SyncTarget, externalId: string, contactId: string, synced: Fields): Promise<void> {
  await tx
    .insert(integrationContacts)
    .values({ accountId: target.accountId, kind: target.kind, externalId, contactId, synced })
    .onConflictDoUpdate({ target: [integrationContacts.accountId, integrationContacts.kind, integrationContacts.externalId], set: { contactId, synced, syncedAt: new Date() } });
}

/**
 * The conflict rule for one contact: `write` the fields to take from the provider, `kept` those changed in
 * Parley since the last sync (or, before any sync, different there and not empty), `synced` what the link
 * remembers now.
 */
export function mergeFields(current: Fields, incoming: Fields, lastSynced: Partial<Fields> | null): { write: Partial<Fields>; kept: SyncedField[]; synced: Fields } {
  const write: Partial<Fields> = {};
  const kept: SyncedField[] = [];
  const synced = { ...incoming };
  for (const field of SYNCED_FIELDS) {
    if (current[field] === incoming[field]) continue;
    const last = lastSynced?.[field];
    const untouched = last === undefined ? current[field] === '' : current[field] === last;
    if (untouched) {
      write[field] = incoming[field];
    } else {
      kept.push(field);
      // Remember what was last taken, so the field stays Parley's until the two agree again.
      if (last !== undefined) synced[field] = last;
    }
  }
  return { write, kept, synced };
}

async function defaultCountryOf(tx: Tx, accountId: string): Promise<string> {
  const [row] = await tx.select({ country: accounts.defaultCountry }).from(accounts).where(eq(accounts.id, accountId)).limit(1);
  return row?.country ?? 'US';
}

/** Writes one page of contacts in the caller's transaction; adds to `counts`. */
export async function applyContactPage(tx: Tx, target: SyncTarget, items: readonly ProviderContact[], counts: PageCounts): Promise<void> {
  const country = await defaultCountryOf(tx, target.accountId);
  const links = await linksOf(tx, target, items.map((i) => i.externalId));
  const db = tx as unknown as Db;
  for (const item of items) {
    counts.done += 1;
    if (item.phone.trim() === '') {
      skip(counts, NO_MOBILE_REASON, labelOf(item));
      continue;
    }
    const mobile = normaliseContactMobile(item.phone, null, country);
    if (!mobile.valid) {
      skip(counts, INVALID_MOBILE_REASON, labelOf(item));
      continue;
    }
    const incoming = providerFields(item);
    const link = links.get(item.externalId) ?? null;
    const linked = link === null ? null : ((await findContact(tx, target.accountId, link.contactId))?.contact ?? null);
    const contact = linked ?? (await findContactByMobile(tx, target.accountId, mobile.number));
    if (contact === null) {
      const created = await createContact(db, target.accountId, {
        ...incoming,
        mobile: { number: mobile.number, country: mobile.country },
        tags: target.importTag === '' ? [] : [target.importTag],
        attributes: {},
      });
      await saveLink(tx, target, item.externalId, created.contact.id, incoming);
      counts.created += 1;
      continue;
    }
    if (linked === null && (await linkedElsewhere(tx, target, contact.id, item.externalId))) {
      skip(counts, sameMobileReason(target.kind), labelOf(item));
      continue;
    }
    const merge = mergeFields(fieldsOf(contact), incoming, link === null ? null : link.synced);
    const tags = target.importTag === '' || contact.tags.some((t) => t.toLowerCase() === target.importTag.toLowerCase()) ? null : uniqueTags([...contact.tags, target.importTag]);
    if (Object.keys(merge.write).length > 0 || tags !== null) {
      await updateContact(db, target.accountId, contact.id, { ...merge.write, ...(tags === null ? {} : { tags }) });
    }
    await saveLink(tx, target, item.externalId, contact.id, merge.synced);
    if (merge.kept.length > 0) skip(counts, changedInParleyReason(merge.kept), labelOf(item));
    else if (Object.keys(merge.write).length > 0 || tags !== null) counts.updated += 1;
  }
}

/** Adds a page of the provider's tags to the linked contacts (tags are only added, never removed). */
export async function applyTagPage(tx: Tx, target: SyncTarget, items: readonly ProviderContactTags[], counts: PageCounts): Promise<void> {
  const links = await linksOf(tx, target, items.map((i) => i.externalId));
  const db = tx as unknown as Db;
  for (const item of items) {
    // Progress counts the provider's contact-tag links, as its total does.
    counts.done += Math.max(1, item.tags.length);
    const link = links.get(item.externalId);
    const record = link === undefined ? null : await findContact(tx, target.accountId, link.contactId);
    if (record === null) {
      skip(counts, NOT_LINKED_REASON, item.externalId);
      continue;
    }
    const valid = item.tags.flatMap((t) => {
      const tag = contactTagSchema.safeParse(t);
      return tag.success ? [tag.data] : [];
    });
    const tags = uniqueTags([...record.contact.tags, ...valid]);
    if (tags.length === record.contact.tags.length) continue;
    await updateContact(db, target.accountId, record.contact.id, { tags });
    counts.updated += 1;
  }
}
