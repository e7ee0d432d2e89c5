import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../db/client.js';
import { accountMembers, contactGroups, groupUsers, users, type GroupRow } from '../db/schema/index.js';
import { isUuid } from '../lists/queries.js';

export interface GroupMemberUser {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
}

export interface GroupWithUsers {
  group: GroupRow;
  users: GroupMemberUser[];
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
  return { group, users: (await usersOf(q, accountId, [group.id])).get(group.id) ?? [] };
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
  const byGroup = await usersOf(
    q,
    accountId,
    groups.map((g) => g.id),
  );
  return { rows: groups.map((group) => ({ group, users: byGroup.get(group.id) ?? [] })), totalCount: total?.n ?? 0 };
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
