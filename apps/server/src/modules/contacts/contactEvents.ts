import { and, eq } from 'drizzle-orm';
import type { ContactEventData, ContactEventType } from '@parley/shared';
import { findContact, type ContactRecord } from './queries.js';
import type { Tx } from '../../platform/db/client.js';
import { contacts } from '../../platform/db/schema/index.js';
import { publishEvent, type NewEvent } from '../../platform/events/outbox.js';
import { presentContact } from './contactPresenter.js';

/** An outbox event about a contact, carrying the contact as the API shows it. */
export function contactEvent(
  type: ContactEventType,
  accountId: string,
  record: ContactRecord,
): NewEvent & { data: ContactEventData } {
  return { type, accountId, userId: null, data: { contact: presentContact(record) } };
}

/**
 * Opts a contact out of everything the account sends (STOP) or back in (START), in the caller's transaction,
 * and publishes contactOptOut or contactOptIn. Nothing happens (and null is answered) when the contact is
 * not the account's; nothing is published when the contact was already in that state. Opting back in also
 * lifts a block: the only way out of a block is the contact's own START.
 */
export async function setContactOptOut(
  tx: Tx,
  accountId: string,
  contactId: string,
  optedOut: boolean,
  now: Date = new Date(),
): Promise<ContactRecord | null> {
  const current = await findContact(tx, accountId, contactId);
  if (!current) return null;
  const { contact } = current;
  const changes = optedOut
    ? contact.optedOutAt === null
      ? { optedOutAt: now }
      : null
    : contact.optedOutAt !== null || contact.blockedAt !== null
      ? { optedOutAt: null, blockedAt: null }
      : null;
  if (changes === null) return current;
  await tx
    .update(contacts)
    .set({ ...changes, updatedAt: now })
    .where(and(eq(contacts.accountId, accountId), eq(contacts.id, contactId)));
  const record = await findContact(tx, accountId, contactId);
  if (!record) return null;
  await publishEvent(tx, contactEvent(optedOut ? 'contactOptOut' : 'contactOptIn', accountId, record));
  return record;
}
