import { and, count, eq } from 'drizzle-orm';
import { EMAIL_NOT_EDITABLE_MESSAGE, LAST_ADMINISTRATOR_MESSAGE, type Role, type UpdateAccountUser } from '@parley/shared';
import type { Db, Tx } from '../../platform/db/client.js';
import { accountMembers, invitations } from '../../platform/db/schema/index.js';
import { AppError, notFound } from '../../platform/errors.js';
import { normalizeEmail } from '../identity/index.js';
import { forgetAccountAccess, publishAccessChanged } from '../identity/index.js';
import { lockAccount } from '../../platform/db/accountLock.js';
import { findAccountUser, type AccountUserRecord } from './accountUsers.js';

const USER = 'The user';

async function administratorCount(tx: Tx, accountId: string): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(accountMembers)
    .where(and(eq(accountMembers.accountId, accountId), eq(accountMembers.role, 'Administrator')));
  return row?.n ?? 0;
}

/** Refuses a change that would take the account's last administrator away (the account row is locked). */
async function keepAnAdministrator(tx: Tx, accountId: string, record: AccountUserRecord, newRole: Role | null): Promise<void> {
  if (record.kind !== 'member' || record.role !== 'Administrator' || newRole === 'Administrator') return;
  if ((await administratorCount(tx, accountId)) <= 1) throw new AppError(409, 'conflict', LAST_ADMINISTRATOR_MESSAGE);
}

/** Changes the role of a member or of an open invitation; the e-mail stays as it is. */
export async function changeRole(db: Db, accountId: string, id: string, change: UpdateAccountUser): Promise<AccountUserRecord> {
  const changed = await db.transaction(async (tx) => {
    await lockAccount(tx, accountId);
    const record = await findAccountUser(tx, accountId, id);
    if (!record) throw notFound(USER);
    if (change.email !== undefined && normalizeEmail(change.email) !== record.email) {
      throw new AppError(400, 'validation_failed', EMAIL_NOT_EDITABLE_MESSAGE);
    }
    await keepAnAdministrator(tx, accountId, record, change.role);
    if (record.kind === 'member') {
      await tx
        .update(accountMembers)
        .set({ role: change.role })
        .where(and(eq(accountMembers.accountId, accountId), eq(accountMembers.userId, record.userId)));
      if (record.role !== change.role) await publishAccessChanged(tx, accountId, [record.userId]);
    } else {
      await tx
        .update(invitations)
        .set({ role: change.role })
        .where(and(eq(invitations.accountId, accountId), eq(invitations.id, record.invitationId)));
    }
    return { ...record, role: change.role };
  });
  // The guard's cached roles (modules/identity/memberships.ts) of this process; others see it within seconds.
  forgetAccountAccess(accountId);
  return changed;
}

/** Removes a member from the account (the person keeps their Parley user) or withdraws an invitation. */
export async function removeUser(db: Db, accountId: string, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    await lockAccount(tx, accountId);
    const record = await findAccountUser(tx, accountId, id);
    if (!record) throw notFound(USER);
    await keepAnAdministrator(tx, accountId, record, null);
    if (record.kind === 'member') {
      await tx
        .delete(accountMembers)
        .where(and(eq(accountMembers.accountId, accountId), eq(accountMembers.userId, record.userId)));
      await publishAccessChanged(tx, accountId, [record.userId]);
    } else {
      await tx.delete(invitations).where(and(eq(invitations.accountId, accountId), eq(invitations.id, record.invitationId)));
    }
  });
  forgetAccountAccess(accountId);
}
