import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client.js';
import {
  accountMembers,
  contactGroups,
  groupPhoneNumbers,
  groupUsers,
  phoneNumbers,
  users,
  type GroupRow,
} from '../../platform/db/schema/index.js';
import { isUuid } from '../../platform/db/ids.js';

export interface GroupMemberUser {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
}

export interface GroupWithUsers {
  group: GroupRow;
  users: GroupMemberUser[];
  /** The ids of the account's numbers the group holds. */
  phoneNumberIds: string[];
}

async function numbersOf(q: Queryable, accountId: string, groupIds: string[]): Promise<Map<string, string[]>> {
  const byGroup = new Map<string, string[]>(groupIds.map((id) => [id, []]));
  if (groupIds.length === 0) return byGroup;
  const rows = await q
    .select({ groupId: groupPhoneNumbers.groupId, id: groupPhoneNumbers.phoneNumberId })
    .from(groupPhoneNumbers)
    .innerJoin(phoneNumbers, and(eq(phoneNumbers.id, groupPhoneNumbers.phoneNumberId), eq(phoneNumbers.accountId, accountId)))
    .where(inArray(groupPhoneNumbers.groupId, groupIds))
    .orderBy(asc(phoneNumbers.createdAt), asc(phoneNumbers.id));
  for (const { groupId, id } of rows) byGroup.get(groupId)?.push(id);
  return byGroup;
}

/** The ids among `ids` that are numbers of the account (released ones excepted). */
export async function accountPhoneNumberIds(q: Queryable, accountId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await q
    .select({ id: phoneNumbers.id })
    .from(phoneNumbers)
    .where(and(eq(phoneNumbers.accountId, accountId), inArray(phoneNumbers.id, [...ids]), sql`${phoneNumbers.status} <> 'released'`));
  return new Set(rows.map((r) => r.id));
}

/**
 * The users of each group who are still users of the account (someone removed from the account drops
 * out of its groups without the groups being rewritten), by name.
 */
async function usersOf(q: Queryable, accountId: string, groupIds: string[]): Promise<Map<string, GroupMemberUser[]>> {
  const byGroup = new Map<string, GroupMemberUser[]>(groupIds.map((id) => [id, []]));
  if (groupIds.length === 0) return byGroup;
  const rows = await q
    .select({ groupId: groupUsers.groupId, id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(groupUsers)
    .innerJoin(users, eq(users.id, groupUsers.userId))
    .innerJoin(accountMembers, and(eq(accountMembers.userId, groupUsers.userId), eq(accountMembers.accountId, accountId)))
    .where(inArray(groupUsers.groupId, groupIds))
    .orderBy(asc(users.firstName), asc(users.lastName), asc(users.email));
  for (const { groupId, ...user } of rows) byGroup.get(groupId)?.push(user);
  return byGroup;
}

export async function findGroup(q: Queryable, accountId: string, groupId: string): Promise<GroupWithUsers | null> {
  if (!isUuid(groupId)) return null;
  const [group] = await q
    .select()
    .from(contactGroups)
    .where(and(eq(contactGroups.accountId, accountId), eq(contactGroups.id, groupId)))
    .limit(1);
  if (!group) return null;
  return {
    group,
    users: (await usersOf(q, accountId, [group.id])).get(group.id) ?? [],
    phoneNumberIds: (await numbersOf(q, accountId, [group.id])).get(group.id) ?? [],
  };
}

/** The account's groups by name (ignoring case), with their users. */
export async function listGroups(
  q: Queryable,
  accountId: string,
  page: { offset: number; limit: number },
): Promise<{ rows: GroupWithUsers[]; totalCount: number }> {
  const where = eq(contactGroups.accountId, accountId);
  const [total] = await q.select({ n: count() }).from(contactGroups).where(where);
  const groups = await q
    .select()
    .from(contactGroups)
    .where(where)
    .orderBy(asc(sql`lower(${contactGroups.name})`), asc(contactGroups.id))
    .limit(page.limit)
    .offset(page.offset);
  const ids = groups.map((g) => g.id);
  const byGroup = await usersOf(q, accountId, ids);
  const numbers = await numbersOf(q, accountId, ids);
  return {
    rows: groups.map((group) => ({ group, users: byGroup.get(group.id) ?? [], phoneNumberIds: numbers.get(group.id) ?? [] })),
    totalCount: total?.n ?? 0,
  };
}

export async function groupNameTaken(q: Queryable, accountId: string, name: string, exceptId?: string): Promise<boolean> {
  const rows = await q
    .select({ id: contactGroups.id })
    .from(contactGroups)
    .where(and(eq(contactGroups.accountId, accountId), sql`lower(${contactGroups.name}) = lower(${name})`));
  return rows.some((r) => r.id !== exceptId);
}

/** The ids among `userIds` that are users of the account. */
export async function accountUserIds(q: Queryable, accountId: string, userIds: readonly string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await q
    .select({ userId: accountMembers.userId })
    .from(accountMembers)
    .where(and(eq(accountMembers.accountId, accountId), inArray(accountMembers.userId, [...userIds])));
  return new Set(rows.map((r) => r.userId));
}

/** The groups a user belongs to in the accounts they are still a user of, by name. */
export async function groupsOfUser(q: Queryable, userId: string): Promise<{ id: string; name: string }[]> {
  return q
    .select({ id: contactGroups.id, name: contactGroups.name })
    .from(groupUsers)
    .innerJoin(contactGroups, eq(contactGroups.id, groupUsers.groupId))
    .innerJoin(accountMembers, and(eq(accountMembers.userId, groupUsers.userId), eq(accountMembers.accountId, contactGroups.accountId)))
    .where(eq(groupUsers.userId, userId))
    .orderBy(asc(sql`lower(${contactGroups.name})`), asc(contactGroups.id));
}
