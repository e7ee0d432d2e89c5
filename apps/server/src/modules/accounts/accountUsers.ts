import { and, asc, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import type { Role } from '@parley/shared';
import type { Queryable } from '../../platform/db/client.js';
import { accountMembers, invitations, users } from '../../platform/db/schema/index.js';

/** A member of the account (status active) or an open invitation to it (status invited). */
export type AccountUserRecord =
  | { kind: 'member'; userId: string; firstName: string; lastName: string; email: string; role: Role }
  | { kind: 'invitation'; invitationId: string; firstName: string; lastName: string; email: string; role: Role };

export async function findMember(q: Queryable, accountId: string, userId: string): Promise<AccountUserRecord | null> {
  const [row] = await q
    .select({ userId: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email, role: accountMembers.role })
    .from(accountMembers)
    .innerJoin(users, eq(users.id, accountMembers.userId))
    .where(and(eq(accountMembers.accountId, accountId), eq(accountMembers.userId, userId)))
    .limit(1);
  return row ? { kind: 'member', ...row } : null;
}

/** What an invitation shows in the users list. */
const invitationColumns = {
  invitationId: invitations.id,
  firstName: invitations.firstName,
  lastName: invitations.lastName,
  email: invitations.email,
  role: invitations.role,
};

export async function findOpenInvitation(
  q: Queryable,
  accountId: string,
  where: { id: string } | { email: string },
): Promise<AccountUserRecord | null> {
  const [row] = await q
    .select(invitationColumns)
    .from(invitations)
    .where(
      and(
        eq(invitations.accountId, accountId),
        'id' in where ? eq(invitations.id, where.id) : eq(invitations.email, where.email),
        isNull(invitations.acceptedAt),
      ),
    )
    .limit(1);
  return row ? { kind: 'invitation', ...row } : null;
}

const uuid = z.uuid();

/** A member by user id, else an open invitation by its id; a malformed id finds nothing. */
export async function findAccountUser(q: Queryable, accountId: string, id: string): Promise<AccountUserRecord | null> {
  if (!uuid.safeParse(id).success) return null;
  return (await findMember(q, accountId, id)) ?? (await findOpenInvitation(q, accountId, { id }));
}

const sortKey = (r: AccountUserRecord): string => `${r.firstName} ${r.lastName} ${r.email}`.toLowerCase();

/**
 * Members and open invitations, by name. An account has a handful of users, so both lists are read
 * whole and paged here; an invitation for someone who is already a member is left out.
 */
export async function listAccountUsers(
  q: Queryable,
  accountId: string,
  page: { offset: number; limit: number },
): Promise<{ records: AccountUserRecord[]; totalCount: number }> {
  const members = await q
    .select({ userId: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email, role: accountMembers.role })
    .from(accountMembers)
    .innerJoin(users, eq(users.id, accountMembers.userId))
    .where(eq(accountMembers.accountId, accountId))
    .orderBy(asc(users.id));
  const open = await q
    .select(invitationColumns)
    .from(invitations)
    .where(and(eq(invitations.accountId, accountId), isNull(invitations.acceptedAt)))
    .orderBy(asc(invitations.id));
  const memberEmails = new Set(members.map((m) => m.email));
  const all: AccountUserRecord[] = [
    ...members.map((m) => ({ kind: 'member' as const, ...m })),
    ...open.filter((i) => !memberEmails.has(i.email)).map((i) => ({ kind: 'invitation' as const, ...i })),
  ].sort((a, b) => sortKey(a).localeCompare(sortKey(b)));
  return { records: all.slice(page.offset, page.offset + page.limit), totalCount: all.length };
}
