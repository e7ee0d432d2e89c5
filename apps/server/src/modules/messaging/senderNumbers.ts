import { and, asc, eq, sql } from 'drizzle-orm';
import type { PhoneNumberFilter } from '@parley/shared';
import type { Queryable } from '../../platform/db/client.js';
import { contactGroups, groupPhoneNumbers, phoneNumbers, type PhoneNumberRow } from '../../platform/db/schema/index.js';
import { AppError, notFound } from '../../platform/errors.js';
import { isUuid } from '../../platform/db/ids.js';

/*
 * Which of the account's numbers a message goes from (DESIGN.md "The path of a message"): the group or
 * number of `phoneNumberFilter` when given, else the number the contact last talked to while it is still
 * active, else the account's oldest active number. Within a group, the contact's own number when the group
 * holds it, else the group's oldest active number. Only `active` numbers send.
 */

export const NO_ACTIVE_NUMBER_MESSAGE = 'This account has no active phone number to send from';
export const GROUP_NO_ACTIVE_NUMBER_MESSAGE = 'This group has no active phone number to send from';
export const NUMBER_NOT_ACTIVE_MESSAGE = 'This phone number is not active, so it cannot send';
export const SENDER_FILTER_NOT_FOUND = 'The group or phone number';

export interface SenderNumber {
  id: string;
  /** E.164 or an alphanumeric sender id. */
  number: string;
  carrier: PhoneNumberRow['carrier'];
  /** The group a new conversation on this number belongs to: the oldest group holding it, if any. */
  groupId: string | null;
}

/** The account's active numbers, oldest first, each with the first group that holds it. */
export async function activeSenderNumbers(q: Queryable, accountId: string): Promise<SenderNumber[]> {
  const rows = await q
    .select({
      id: phoneNumbers.id,
      number: phoneNumbers.number,
      carrier: phoneNumbers.carrier,
      // Aliased and qualified by hand: inside a selected subquery the builder leaves column names bare.
      groupId: sql<string | null>`(
        select gp.group_id from group_phone_numbers gp
          join groups g on g.id = gp.group_id
         where gp.phone_number_id = phone_numbers.id and g.account_id = ${accountId}
         order by g.created_at, g.id limit 1)`,
    })
    .from(phoneNumbers)
    .where(and(eq(phoneNumbers.accountId, accountId), eq(phoneNumbers.status, 'active')))
    .orderBy(asc(phoneNumbers.createdAt), asc(phoneNumbers.id));
  return rows;
}

/** The numbers a send may choose from, and the group a new conversation gets. */
export interface SenderCandidates {
  /** Oldest first; never empty. */
  numbers: SenderNumber[];
  /** The filter's group: new conversations belong to it. */
  groupId: string | null;
}

/**
 * The candidates for a send: the filter's group (its active numbers) or number (when active), else every
 * active number of the account. 404 for a group or number of another account; 400 when nothing can send.
 */
export async function senderCandidates(
  q: Queryable,
  accountId: string,
  active: readonly SenderNumber[],
  filter: PhoneNumberFilter | null | undefined,
): Promise<SenderCandidates> {
  if (filter === null || filter === undefined) {
    if (active.length === 0) throw new AppError(400, 'bad_request', NO_ACTIVE_NUMBER_MESSAGE);
    return { numbers: [...active], groupId: null };
  }
  const id = filter.group;
  if (!isUuid(id)) throw notFound(SENDER_FILTER_NOT_FOUND);

  const [group] = await q
    .select({ id: contactGroups.id })
    .from(contactGroups)
    .where(and(eq(contactGroups.accountId, accountId), eq(contactGroups.id, id)))
    .limit(1);
  if (group) {
    const held = await q
      .select({ id: groupPhoneNumbers.phoneNumberId })
      .from(groupPhoneNumbers)
      .where(eq(groupPhoneNumbers.groupId, group.id));
    const ids = new Set(held.map((r) => r.id));
    const numbers = active.filter((n) => ids.has(n.id));
    if (numbers.length === 0) throw new AppError(400, 'bad_request', GROUP_NO_ACTIVE_NUMBER_MESSAGE);
    return { numbers, groupId: group.id };
  }

  const [number] = await q
    .select({ id: phoneNumbers.id, status: phoneNumbers.status })
    .from(phoneNumbers)
    .where(and(eq(phoneNumbers.accountId, accountId), eq(phoneNumbers.id, id)))
    .limit(1);
  if (!number) throw notFound(SENDER_FILTER_NOT_FOUND);
  const chosen = active.find((n) => n.id === number.id);
  if (chosen === undefined) throw new AppError(400, 'bad_request', NUMBER_NOT_ACTIVE_MESSAGE);
  return { numbers: [chosen], groupId: null };
}

/** The contact's kept number when it is a candidate, else the oldest candidate. */
export function chooseSenderNumber(candidates: SenderCandidates, keptNumberId: string | null): SenderNumber {
  const kept = keptNumberId === null ? undefined : candidates.numbers.find((n) => n.id === keptNumberId);
  const chosen = kept ?? candidates.numbers[0];
  if (chosen === undefined) throw new AppError(400, 'bad_request', NO_ACTIVE_NUMBER_MESSAGE);
  return chosen;
}
