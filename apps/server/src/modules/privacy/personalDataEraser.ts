import { and, eq, isNotNull, or, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { normaliseContactMobile, privacyCsvColumns, type PrivacyRemoved, type PrivacySearchQuery } from '@parley/shared';
import { csvLine } from '../contacts/index.js';
import { findContact, type ContactRecord } from '../contacts/index.js';
import type { Db, Queryable, Tx } from '../../platform/db/client.js';
import { accounts, auditLog, contacts, events } from '../../platform/db/schema/index.js';
import { notFound } from '../../platform/errors.js';
import type { Principal } from '../identity/index.js';
import { publishEvent } from '../../platform/events/outbox.js';
import { contactEvent } from '../contacts/index.js';
import { collectPersonalData, holdingsOf, removeHoldings } from './personalData.js';

const CONTACT = 'The contact';

export type PrivacyAction = 'gdpr.download' | 'gdpr.remove';

/** Writes who did what to whose data, in the caller's transaction. */
async function audit(
  tx: Tx,
  accountId: string,
  actor: Principal,
  action: PrivacyAction,
  contactId: string,
  details: Record<string, unknown>,
): Promise<void> {
  const isClient = actor.clientId !== undefined;
  await tx.insert(auditLog).values({
    id: uuidv7(),
    accountId,
    actorUserId: isClient ? null : actor.userId,
    actorClientId: isClient ? (actor.clientId ?? null) : null,
    action,
    subjectType: 'contact',
    subjectId: contactId,
    details,
  });
}

/**
 * The contact of the account holding a number: the number is normalised as contacts are (its country,
 * else the account's default); a number that does not normalise is looked up as typed, since an invalid
 * contact keeps the number it was given.
 */
export async function findContactByNumber(
  q: Queryable,
  accountId: string,
  query: PrivacySearchQuery,
): Promise<{ record: ContactRecord; holdings: Awaited<ReturnType<typeof holdingsOf>> } | null> {
  const [account] = await q.select({ defaultCountry: accounts.defaultCountry }).from(accounts).where(eq(accounts.id, accountId));
  const mobile = normaliseContactMobile(query.number, query.country, account?.defaultCountry);
  const candidates = [...new Set([mobile.number, query.number.trim()])];
  for (const number of candidates) {
    const [row] = await q
      .select({ id: contacts.id })
      .from(contacts)
      .where(and(eq(contacts.accountId, accountId), eq(contacts.mobileNumber, number)))
      .limit(1);
    if (!row) continue;
    const record = await findContact(q, accountId, row.id);
    if (record) return { record, holdings: await holdingsOf(q, accountId, row.id) };
  }
  return null;
}

/**
 * Everything held about a contact as CSV text (see privacyCsvColumns), with the audit row written in the
 * same transaction: no download goes unrecorded.
 */
export function downloadPersonalData(db: Db, accountId: string, contactId: string, actor: Principal): Promise<string> {
  return db.transaction(async (tx) => {
    const record = await findContact(tx, accountId, contactId);
    if (!record) throw notFound(CONTACT);
    const rows = await collectPersonalData(tx, accountId, record);
    await audit(tx, accountId, actor, 'gdpr.download', contactId, { rows: rows.length });
    return [csvLine(privacyCsvColumns), ...rows.map((r) => csvLine([r.record, r.recordId, r.field, r.value]))].join('');
  });
}

/**
 * Removes a contact for good with everything tied to it (its conversations and messages in every status,
 * the queued ones refunded), writes the audit row (counts only: no personal data outlives the removal in
 * it) and publishes contactRemoved, all in one transaction. Earlier events about the contact, its messages
 * or conversations that were already delivered are deleted too; the contactRemoved event carries the
 * contact as it was, so subscribers can act on it, and is pruned with every event (EVENTS_RETENTION_DAYS).
 */
export function erasePersonalData(db: Db, accountId: string, contactId: string, actor: Principal): Promise<PrivacyRemoved> {
  return db.transaction(async (tx) => {
    const record = await findContact(tx, accountId, contactId);
    if (!record) throw notFound(CONTACT);
    const others = await removeHoldings(tx, accountId, record.contact);
    const deleted = await tx
      .delete(contacts)
      .where(and(eq(contacts.accountId, accountId), eq(contacts.id, contactId)))
      .returning({ id: contacts.id });
    const removed: PrivacyRemoved = { contacts: deleted.length, ...others };
    await tx
      .delete(events)
      .where(
        and(
          eq(events.accountId, accountId),
          isNotNull(events.dispatchedAt),
          // The contact's own events, and those carrying one of their messages or conversations whole.
          or(
            sql`${events.data} -> 'contact' ->> 'id' = ${contactId}`,
            sql`${events.data} -> 'message' -> 'contact' ->> 'id' = ${contactId}`,
            sql`${events.data} -> 'conversation' -> 'contact' ->> 'id' = ${contactId}`,
          ),
        ),
      );
    await audit(tx, accountId, actor, 'gdpr.remove', contactId, { removed });
    await publishEvent(tx, contactEvent('contactRemoved', accountId, record));
    return removed;
  });
}
