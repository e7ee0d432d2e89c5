import { and, eq, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { GROUP_NAME_TAKEN_MESSAGE, GROUP_PHONE_NUMBERS_MESSAGE, GROUP_USERS_MESSAGE, type SaveGroup } from '@parley/shared';
import type { Db, Tx } from '../../platform/db/client.js';
import { contactGroups, groupPhoneNumbers, groupUsers } from '../../platform/db/schema/index.js';
import { accountPhoneNumberIds, accountUserIds, findGroup, groupNameTaken, type GroupWithUsers } from './queries.js';
import { AppError, notFound } from '../../platform/errors.js';
import { publishAccessChanged } from '../identity/index.js';
import { lockAccount } from '../../platform/db/accountLock.js';
import { isUuid } from '../../platform/db/ids.js';

const GROUP = 'The group';

/** Checks the name and the users before anything is written, so bad input changes nothing. */
async function check(tx: Tx, accountId: string, input: SaveGroup, exceptId?: string): Promise<void> {
  if (await groupNameTaken(tx, accountId, input.name, exceptId)) throw new AppError(409, 'conflict', GROUP_NAME_TAKEN_MESSAGE);
  const wanted = input.users ?? [];
  const known = await accountUserIds(tx, accountId, wanted);
  if (wanted.some((id) => !known.has(id))) throw new AppError(400, 'validation_failed', `users: ${GROUP_USERS_MESSAGE}`);
  const numbers = input.phoneNumbers ?? [];
  const ours = await accountPhoneNumberIds(tx, accountId, numbers);
  if (numbers.some((id) => !ours.has(id))) {
    throw new AppError(400, 'validation_failed', `phoneNumbers: ${GROUP_PHONE_NUMBERS_MESSAGE}`);
  }
}

async function replacePhoneNumbers(tx: Tx, groupId: string, ids: readonly string[]): Promise<void> {
  await tx.delete(groupPhoneNumbers).where(eq(groupPhoneNumbers.groupId, groupId));
  const unique = [...new Set(ids)];
  if (unique.length > 0) await tx.insert(groupPhoneNumbers).values(unique.map((phoneNumberId) => ({ groupId, phoneNumberId })));
}

async function usersOf(tx: Tx, groupId: string): Promise<Set<string>> {
  const rows = await tx.select({ userId: groupUsers.userId }).from(groupUsers).where(eq(groupUsers.groupId, groupId));
  return new Set(rows.map((r) => r.userId));
}

/** Replaces the group's users; those who joined or left are told, so their sockets change rooms. */
async function replaceUsers(tx: Tx, accountId: string, groupId: string, userIds: readonly string[]): Promise<void> {
  const before = await usersOf(tx, groupId);
  await tx.delete(groupUsers).where(eq(groupUsers.groupId, groupId));
  const after = new Set(userIds);
  if (after.size > 0) await tx.insert(groupUsers).values([...after].map((userId) => ({ groupId, userId })));
  const changed = [...[...before].filter((id) => !after.has(id)), ...[...after].filter((id) => !before.has(id))];
  await publishAccessChanged(tx, accountId, changed);
}

async function reload(tx: Tx, accountId: string, groupId: string): Promise<GroupWithUsers> {
  const saved = await findGroup(tx, accountId, groupId);
  if (!saved) throw notFound(GROUP);
  return saved;
}

/** A new group, with numbers and users of the account only. */
export function createGroup(db: Db, accountId: string, input: SaveGroup): Promise<GroupWithUsers> {
  return db.transaction(async (tx) => {
    await lockAccount(tx, accountId);
    await check(tx, accountId, input);
    const id = uuidv7();
    await tx.insert(contactGroups).values({
      id,
      accountId,
      name: input.name,
      tags: input.tags ?? [],
    });
    await replaceUsers(tx, accountId, id, input.users ?? []);
    await replacePhoneNumbers(tx, id, input.phoneNumbers ?? []);
    return reload(tx, accountId, id);
  });
}

/** Changes a group: the name always, each list only when it is sent. */
export function updateGroup(db: Db, accountId: string, groupId: string, input: SaveGroup): Promise<GroupWithUsers> {
  return db.transaction(async (tx) => {
    await lockAccount(tx, accountId);
    if (!(await findGroup(tx, accountId, groupId))) throw notFound(GROUP);
    await check(tx, accountId, input, groupId);
    await tx
      .update(contactGroups)
      .set({
        name: input.name,
        ...(input.tags === undefined ? {} : { tags: input.tags }),
        updatedAt: sql`now()`,
      })
      .where(and(eq(contactGroups.accountId, accountId), eq(contactGroups.id, groupId)));
    if (input.users !== undefined) await replaceUsers(tx, accountId, groupId, input.users);
    if (input.phoneNumbers !== undefined) await replacePhoneNumbers(tx, groupId, input.phoneNumbers);
    return reload(tx, accountId, groupId);
  });
}

export async function removeGroup(db: Db, accountId: string, groupId: string): Promise<void> {
  if (!isUuid(groupId)) throw notFound(GROUP);
  await db.transaction(async (tx) => {
    const members = await usersOf(tx, groupId);
    const removed = await tx
      .delete(contactGroups)
      .where(and(eq(contactGroups.accountId, accountId), eq(contactGroups.id, groupId)))
      .returning({ id: contactGroups.id });
    if (removed.length === 0) throw notFound(GROUP);
    await publishAccessChanged(tx, accountId, members);
  });
}
