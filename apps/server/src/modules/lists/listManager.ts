import { and, eq, inArray, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import {
  listConsentEventTypes,
  type ListConsentEventData,
  LIST_NAME_TAKEN_MESSAGE,
  type AddListContacts,
  type AddListContactsResult,
  type SaveList,
  type UpdateListMember,
} from '@parley/shared';
import type { Db } from '../../platform/db/client.js';
import { contactLists, contacts, listMembers } from '../../platform/db/schema/index.js';
import { publishEvent } from '../../platform/events/outbox.js';
import { AppError, notFound } from '../../platform/errors.js';
import { findList, findMember, listNameTaken, type ListWithCount, type MemberWithContact } from './queries.js';
import { lockAccount } from '../../platform/db/accountLock.js';
import { isUuid } from '../../platform/db/ids.js';

const LIST = 'The list';
const MEMBER = 'The contact on this list';
/** What a consent change made in the app records as its source when the caller names none. */
export const MANUAL_CONSENT_SOURCE = 'manual';

/** A new list; names are unique in the account, ignoring case (the account row lock orders two creations). */
export function createList(db: Db, accountId: string, input: SaveList): Promise<ListWithCount> {
  return db.transaction(async (tx) => {
    await lockAccount(tx, accountId);
    if (await listNameTaken(tx, accountId, input.name)) throw new AppError(409, 'conflict', LIST_NAME_TAKEN_MESSAGE);
    const [list] = await tx.insert(contactLists).values({ id: uuidv7(), accountId, name: input.name }).returning();
    if (!list) throw new Error('the list insert returned nothing');
    return { list, memberCount: 0 };
  });
}

export function renameList(db: Db, accountId: string, listId: string, input: SaveList): Promise<ListWithCount> {
  return db.transaction(async (tx) => {
    await lockAccount(tx, accountId);
    const found = await findList(tx, accountId, listId);
    if (!found) throw notFound(LIST);
    if (await listNameTaken(tx, accountId, input.name, listId)) throw new AppError(409, 'conflict', LIST_NAME_TAKEN_MESSAGE);
    const [list] = await tx
      .update(contactLists)
      .set({ name: input.name, updatedAt: sql`now()` })
      .where(and(eq(contactLists.accountId, accountId), eq(contactLists.id, listId)))
      .returning();
    if (!list) throw notFound(LIST);
    return { list, memberCount: found.memberCount };
  });
}

/** Removes a list and its memberships; the contacts stay. */
export async function removeList(db: Db, accountId: string, listId: string): Promise<void> {
  if (!isUuid(listId)) throw notFound(LIST);
  const removed = await db
    .delete(contactLists)
    .where(and(eq(contactLists.accountId, accountId), eq(contactLists.id, listId)))
    .returning({ id: contactLists.id });
  if (removed.length === 0) throw notFound(LIST);
}

/**
 * Puts contacts of the account on a list, all or nothing. New members are opted in now when asked
 * (`optIn`), else `subscribed`; members already there keep their status and dates.
 */
export function addContactsToList(
  db: Db,
  accountId: string,
  listId: string,
  input: AddListContacts,
): Promise<AddListContactsResult> {
  return db.transaction(async (tx) => {
    if (!(await findList(tx, accountId, listId))) throw notFound(LIST);
    const known = await tx
      .select({ id: contacts.id })
      .from(contacts)
      .where(and(eq(contacts.accountId, accountId), inArray(contacts.id, input.contactIds)));
    if (known.length !== input.contactIds.length) throw notFound('The contact');
    const now = new Date();
    const inserted = await tx
      .insert(listMembers)
      .values(
        input.contactIds.map((contactId) => ({
          id: uuidv7(),
          accountId,
          listId,
          contactId,
          status: input.optIn ? ('optedIn' as const) : ('subscribed' as const),
          optInAt: input.optIn ? now : null,
          consentSource: input.consentSource ?? (input.optIn ? MANUAL_CONSENT_SOURCE : null),
        })),
      )
      .onConflictDoNothing({ target: [listMembers.listId, listMembers.contactId] })
      .returning({ id: listMembers.id });
    await tx
      .update(contactLists)
      .set({ updatedAt: sql`now()` })
      .where(and(eq(contactLists.accountId, accountId), eq(contactLists.id, listId)));
    return { added: inserted.length, alreadyMembers: input.contactIds.length - inserted.length };
  });
}

/**
 * Opts a member in or out of the list now, recording the date and the source. Asking for the status the
 * member already has changes nothing, so the date of the first opt-in (or opt-out) of a run stays.
 */
export function setMemberConsent(
  db: Db,
  accountId: string,
  listId: string,
  contactId: string,
  change: UpdateListMember,
): Promise<MemberWithContact> {
  return db.transaction(async (tx) => {
    if (!(await findList(tx, accountId, listId))) throw notFound(LIST);
    const found = await findMember(tx, accountId, listId, contactId);
    if (!found) throw notFound(MEMBER);
    if (found.member.status === change.status) return found;
    const now = new Date();
    const [member] = await tx
      .update(listMembers)
      .set({
        status: change.status,
        ...(change.status === 'optedIn' ? { optInAt: now } : { optOutAt: now }),
        consentSource: change.consentSource ?? MANUAL_CONSENT_SOURCE,
      })
      .where(eq(listMembers.id, found.member.id))
      .returning();
    if (!member) throw notFound(MEMBER);
    if (member.status === 'optedIn' || member.status === 'optedOut') {
      const data: ListConsentEventData = {
        list: { id: listId },
        contact: { id: contactId },
        status: member.status,
        at: now.toISOString(),
        consentSource: member.consentSource,
      };
      await publishEvent(tx, { type: listConsentEventTypes[member.status], accountId, data, groupId: null });
    }
    return { member, contact: found.contact };
  });
}

/** Takes a contact off a list; the contact stays in the account. */
export function removeContactFromList(db: Db, accountId: string, listId: string, contactId: string): Promise<void> {
  return db.transaction(async (tx) => {
    if (!(await findList(tx, accountId, listId))) throw notFound(LIST);
    if (!isUuid(contactId)) throw notFound(MEMBER);
    const removed = await tx
      .delete(listMembers)
      .where(and(eq(listMembers.accountId, accountId), eq(listMembers.listId, listId), eq(listMembers.contactId, contactId)))
      .returning({ id: listMembers.id });
    if (removed.length === 0) throw notFound(MEMBER);
  });
}
