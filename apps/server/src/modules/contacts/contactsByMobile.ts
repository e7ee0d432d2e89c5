import { and, eq, inArray } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { normaliseContactMobile, type ContactByMobile } from '@parley/shared';
import type { Tx } from '../../platform/db/client.js';
import { contacts } from '../../platform/db/schema/index.js';
import { publishEvents } from '../../platform/events/outbox.js';
import { checkNumberType } from './contactNumberType.js';
import { contactEvent } from './contactEvents.js';
import { accountSettingsOf, mobileColumns } from './contactWriter.js';
import { findContact, findContactByMobile } from './queries.js';

/**
 * The ids of the account's contacts with these mobiles (normalised as on creation), adding those it does not
 * have yet with the names given, in the caller's transaction: a send to a new number creates its contact
 * with the message, or not at all. A number that is not valid is added with `valid: false`, as on creation,
 * and the send then leaves it out for that reason. The ids come back in the order of `entries`.
 */
export async function findOrAddContactsByMobile(tx: Tx, accountId: string, entries: readonly ContactByMobile[]): Promise<string[]> {
  if (entries.length === 0) return [];
  const settings = await accountSettingsOf(tx, accountId);
  const wanted = entries.map((entry) => ({ entry, mobile: normaliseContactMobile(entry.mobile.number, entry.mobile.country, settings.defaultCountry) }));
  const numbers = [...new Set(wanted.map((w) => w.mobile.number))];
  const known = new Map(
    (
      await tx
        .select({ id: contacts.id, mobileNumber: contacts.mobileNumber })
        .from(contacts)
        .where(and(eq(contacts.accountId, accountId), inArray(contacts.mobileNumber, numbers)))
    ).map((row) => [row.mobileNumber, row.id]),
  );
  const added: string[] = [];
  for (const { entry, mobile } of wanted) {
    if (known.has(mobile.number)) continue;
    const now = new Date();
    // A send of another request may add the same number meanwhile: then its contact is the one texted.
    const [inserted] = await tx
      .insert(contacts)
      .values({
        id: uuidv7(),
        accountId,
        firstName: entry.firstName,
        lastName: entry.lastName,
        email: entry.email ?? null,
        ...mobileColumns(mobile),
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing({ target: [contacts.accountId, contacts.mobileNumber] })
      .returning({ id: contacts.id });
    const id = inserted?.id ?? (await findContactByMobile(tx, accountId, mobile.number))?.id;
    if (id === undefined) throw new Error('a contact neither added nor found by its mobile');
    known.set(mobile.number, id);
    if (inserted === undefined) continue;
    added.push(id);
    if (settings.verifyNumberType && mobile.valid) await checkNumberType(tx, accountId, id, mobile.number);
  }
  const events = [];
  for (const id of added) {
    const record = await findContact(tx, accountId, id);
    if (record) events.push(contactEvent('contactCreated', accountId, record));
  }
  await publishEvents(tx, events);
  return wanted.map((w) => known.get(w.mobile.number) ?? '');
}
