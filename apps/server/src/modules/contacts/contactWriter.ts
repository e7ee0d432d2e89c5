import { and, eq, inArray, ne } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import {
  CONTACT_DUPLICATE_MOBILE_MESSAGE,
  normaliseContactMobile,
  type ContactMobile,
  type CreateContact,
  type UpdateContact,
} from '@parley/shared';
import { findContact, listsOf, type ContactRecord } from './queries.js';
import type { Db, Tx } from '../../platform/db/client.js';
import { accountAttributes, accounts, contacts, type ContactRow } from '../../platform/db/schema/index.js';
import { publishEvents } from '../../platform/events/outbox.js';
import { AppError, notFound } from '../../platform/errors.js';
import { checkNumberType } from './contactNumberType.js';
import { contactEvent } from './contactEvents.js';
import { isUuid } from '../../platform/db/ids.js';

/** Opt-out and opt-in (STOP/START) live beside the events they publish; re-exported for callers of this module. */
export { setContactOptOut } from './contactEvents.js';

export const CONTACT_NOT_FOUND = 'The contact';
export const SOME_CONTACTS_NOT_FOUND_MESSAGE = 'One or more of the contacts were not found.';

interface AccountContactSettings {
  defaultCountry: string;
  verifyNumberType: boolean;
}

export async function accountSettingsOf(tx: Tx, accountId: string): Promise<AccountContactSettings> {
  const [row] = await tx
    .select({ defaultCountry: accounts.defaultCountry, options: accounts.options })
    .from(accounts)
    .where(eq(accounts.id, accountId))
    .limit(1);
  if (!row) throw notFound('The account');
  const options = row.options as Record<string, unknown> | null;
  return { defaultCountry: row.defaultCountry, verifyNumberType: options?.verifyNumberType === true };
}

const duplicateMobile = (): AppError => new AppError(409, 'conflict', CONTACT_DUPLICATE_MOBILE_MESSAGE);

/** Two saves of one number racing past the check meet the unique index; both answer the same 409. */
function isDuplicateMobileViolation(error: unknown): boolean {
  for (let e: unknown = error; typeof e === 'object' && e !== null; e = (e as { cause?: unknown }).cause) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown };
    if (code === '23505' && (constraint === undefined || constraint === 'contacts_account_mobile_idx')) return true;
  }
  return false;
}

async function inTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  try {
    return await db.transaction(work);
  } catch (error) {
    if (isDuplicateMobileViolation(error)) throw duplicateMobile();
    throw error;
  }
}

async function refuseTakenMobile(tx: Tx, accountId: string, mobileNumber: string, exceptId?: string): Promise<void> {
  const [taken] = await tx
    .select({ id: contacts.id })
    .from(contacts)
    .where(
      and(
        eq(contacts.accountId, accountId),
        eq(contacts.mobileNumber, mobileNumber),
        exceptId === undefined ? undefined : ne(contacts.id, exceptId),
      ),
    )
    .limit(1);
  if (taken) throw duplicateMobile();
}

/** A contact saved with an attribute the account has not named yet adds the name (GET attributes lists it). */
export async function rememberAttributeNames(tx: Tx, accountId: string, names: readonly string[]): Promise<void> {
  if (names.length === 0) return;
  await tx
    .insert(accountAttributes)
    .values(names.map((name) => ({ accountId, name })))
    .onConflictDoNothing();
}

export function mobileColumns(mobile: ContactMobile) {
  return {
    mobileNumber: mobile.number,
    mobileCountry: mobile.country,
    valid: mobile.valid,
    errorDescription: mobile.valid ? null : mobile.errorDescription,
  };
}

async function reload(tx: Tx, accountId: string, id: string): Promise<ContactRecord> {
  const record = await findContact(tx, accountId, id);
  if (!record) throw notFound(CONTACT_NOT_FOUND);
  return record;
}

/**
 * Adds a contact. The mobile is normalised for its country (else the account's, else US); a number that is
 * not valid is kept with `valid: false` and the reason. A number the account already has is refused (409).
 * With the account's 'validate phone number type' option, a valid number's type is looked up and charged.
 */
export async function createContact(db: Db, accountId: string, input: CreateContact): Promise<ContactRecord> {
  return inTransaction(db, async (tx) => {
    const settings = await accountSettingsOf(tx, accountId);
    const mobile = normaliseContactMobile(input.mobile.number, input.mobile.country, settings.defaultCountry);
    await refuseTakenMobile(tx, accountId, mobile.number);
    const id = uuidv7();
    const now = new Date();
    await tx.insert(contacts).values({
      id,
      accountId,
      firstName: input.firstName,
      lastName: input.lastName,
      email: input.email ?? null,
      tags: input.tags,
      attributes: input.attributes,
      ...mobileColumns(mobile),
      createdAt: now,
      updatedAt: now,
    });
    await rememberAttributeNames(tx, accountId, Object.keys(input.attributes));
    if (settings.verifyNumberType && mobile.valid) await checkNumberType(tx, accountId, id, mobile.number);
    const record = await reload(tx, accountId, id);
    await publishEvents(tx, [contactEvent('contactCreated', accountId, record)]);
    return record;
  });
}

async function lockContact(tx: Tx, accountId: string, id: string): Promise<ContactRow> {
  if (!isUuid(id)) throw notFound(CONTACT_NOT_FOUND);
  const [row] = await tx
    .select()
    .from(contacts)
    .where(and(eq(contacts.accountId, accountId), eq(contacts.id, id)))
    .for('update');
  if (!row) throw notFound(CONTACT_NOT_FOUND);
  return row;
}

/**
 * Changes a contact: each field sent replaces the stored one. A new number is normalised as on creation
 * (its country defaults to the contact's), checked against the account's other contacts and, with the
 * number-type option on, looked up again (charged only if this contact never was).
 */
export async function updateContact(db: Db, accountId: string, id: string, input: UpdateContact): Promise<ContactRecord> {
  return inTransaction(db, async (tx) => {
    const current = await lockContact(tx, accountId, id);
    const settings = await accountSettingsOf(tx, accountId);
    const mobile =
      input.mobile === undefined
        ? null
        : normaliseContactMobile(input.mobile.number, input.mobile.country ?? current.mobileCountry, settings.defaultCountry);
    const renumbered = mobile !== null && mobile.number !== current.mobileNumber;
    if (renumbered) await refuseTakenMobile(tx, accountId, mobile.number, id);
    await tx
      .update(contacts)
      .set({
        updatedAt: new Date(),
        ...(input.firstName === undefined ? {} : { firstName: input.firstName }),
        ...(input.lastName === undefined ? {} : { lastName: input.lastName }),
        ...(input.email === undefined ? {} : { email: input.email }),
        ...(input.tags === undefined ? {} : { tags: input.tags }),
        ...(input.attributes === undefined ? {} : { attributes: input.attributes }),
        ...(mobile === null ? {} : mobileColumns(mobile)),
        // The type found for the old number says nothing about the new one.
        ...(renumbered ? { numberType: null, numberTypeSource: null } : {}),
      })
      .where(and(eq(contacts.accountId, accountId), eq(contacts.id, id)));
    if (input.attributes !== undefined) await rememberAttributeNames(tx, accountId, Object.keys(input.attributes));
    if (renumbered && mobile.valid && settings.verifyNumberType) await checkNumberType(tx, accountId, id, mobile.number);
    const record = await reload(tx, accountId, id);
    await publishEvents(tx, [contactEvent('contactUpdated', accountId, record)]);
    return record;
  });
}

/**
 * Blocks a contact: the blocked date is set (a contact already blocked keeps its first date). Only the
 * contact's own 'START' lifts it (the messaging engine's part). `messageId` names the incoming message the
 * block was made from; it travels with the event so the conversation views can drop that message.
 */
export async function blockContact(
  db: Db,
  accountId: string,
  id: string,
  options: { messageId?: string | undefined } = {},
): Promise<ContactRecord> {
  return db.transaction(async (tx) => {
    const current = await lockContact(tx, accountId, id);
    if (current.blockedAt !== null) return reload(tx, accountId, id);
    const now = new Date();
    await tx
      .update(contacts)
      .set({ blockedAt: now, updatedAt: now })
      .where(and(eq(contacts.accountId, accountId), eq(contacts.id, id)));
    const record = await reload(tx, accountId, id);
    const event = contactEvent('contactUpdated', accountId, record);
    await publishEvents(tx, [
      options.messageId === undefined ? event : { ...event, data: { ...event.data, blockedFromMessageId: options.messageId } },
    ]);
    return record;
  });
}

/** Removes one contact (its list memberships go with it). */
export async function removeContact(db: Db, accountId: string, id: string): Promise<void> {
  await removeContacts(db, accountId, [id], CONTACT_NOT_FOUND);
}

/**
 * Removes contacts, all or none: when any id is not a contact of the account, nothing is removed and the
 * answer is 404 (another account's contact is as unknown as a made-up id).
 */
export async function removeContacts(
  db: Db,
  accountId: string,
  ids: readonly string[],
  notFoundWhat?: string,
): Promise<{ removed: number }> {
  const unique = [...new Set(ids)];
  const missing = (): AppError =>
    notFoundWhat === undefined ? new AppError(404, 'not_found', SOME_CONTACTS_NOT_FOUND_MESSAGE) : notFound(notFoundWhat);
  if (unique.length === 0) return { removed: 0 };
  if (!unique.every(isUuid)) throw missing();
  return db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(contacts)
      .where(and(eq(contacts.accountId, accountId), inArray(contacts.id, unique)))
      .for('update');
    if (rows.length !== unique.length) throw missing();
    const lists = await listsOf(tx, accountId, unique);
    await tx.delete(contacts).where(and(eq(contacts.accountId, accountId), inArray(contacts.id, unique)));
    await publishEvents(
      tx,
      rows.map((contact) => contactEvent('contactRemoved', accountId, { contact, lists: lists.get(contact.id) ?? [] })),
    );
    return { removed: rows.length };
  });
}
