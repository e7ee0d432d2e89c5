import { and, eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { contactEvent } from '../contacts/index.js';
import { findContact } from '../contacts/index.js';
import type { Tx } from '../../platform/db/client.js';
import { contacts, type ContactRow } from '../../platform/db/schema/index.js';
import { publishEvent } from '../../platform/events/outbox.js';

/** What a caller from outside knows of a person besides the number; blank values are left out. */
export interface ContactDetails {
  firstName?: string;
  lastName?: string;
  email?: string | null;
}

/**
 * The account's contact of this (valid, E.164) number, created when new, locked for the rest of the
 * transaction so two sign-ups or calls for one number go one after the other. A new contact takes the details
 * given; an existing one gets only the details it lacks (what the team typed is never overwritten).
 * contactCreated or contactUpdated is published when something was written.
 */
export async function contactForNumber(
  tx: Tx,
  accountId: string,
  mobile: { number: string; country: string },
  details: ContactDetails,
  now: Date,
): Promise<{ contact: ContactRow; created: boolean }> {
  const firstName = details.firstName?.trim() ?? '';
  const lastName = details.lastName?.trim() ?? '';
  const email = details.email?.trim() ?? '';
  const inserted = await tx
    .insert(contacts)
    .values({
      id: uuidv7(),
      accountId,
      firstName,
      lastName,
      email: email === '' ? null : email,
      mobileNumber: mobile.number,
      mobileCountry: mobile.country,
      valid: true,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing({ target: [contacts.accountId, contacts.mobileNumber] })
    .returning({ id: contacts.id });
  const where = and(eq(contacts.accountId, accountId), eq(contacts.mobileNumber, mobile.number));
  const [locked] = await tx.select().from(contacts).where(where).for('update');
  if (!locked) throw new Error(`the contact ${mobile.number} vanished`);
  const created = inserted.length > 0;

  const fill = {
    ...(locked.firstName === '' && firstName !== '' ? { firstName } : {}),
    ...(locked.lastName === '' && lastName !== '' ? { lastName } : {}),
    ...((locked.email ?? '') === '' && email !== '' ? { email } : {}),
  };
  let contact = locked;
  if (!created && Object.keys(fill).length > 0) {
    const [updated] = await tx
      .update(contacts)
      .set({ ...fill, updatedAt: now })
      .where(eq(contacts.id, locked.id))
      .returning();
    if (updated) contact = updated;
  }
  if (created || contact !== locked) {
    const record = await findContact(tx, accountId, contact.id);
    if (record) await publishEvent(tx, contactEvent(created ? 'contactCreated' : 'contactUpdated', accountId, record));
  }
  return { contact, created };
}
