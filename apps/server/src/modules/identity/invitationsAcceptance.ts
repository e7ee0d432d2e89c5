import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client.js';
import { accountMembers, invitations, users } from '../../platform/db/schema/index.js';
import { normalizeEmail } from './users.js';

/**
 * Turns the open invitations for a user's address into memberships with the invited role and marks
 * them accepted. Only for a verified address: otherwise anyone could sign up with an invited address
 * they do not own and join that account. Idempotent: an existing membership is kept as it is, so it
 * can run on verification, on sign-in and after a password reset. Returns how many were accepted.
 */
export async function acceptOpenInvitations(q: Queryable, userId: string, now: Date = new Date()): Promise<number> {
  const [user] = await q
    .select({ email: users.email, verifiedAt: users.emailVerifiedAt })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!user || user.verifiedAt === null) return 0;
  const open = await q
    .select({ id: invitations.id, accountId: invitations.accountId, role: invitations.role })
    .from(invitations)
    .where(and(sql`lower(${invitations.email}) = ${normalizeEmail(user.email)}`, isNull(invitations.acceptedAt)));
  if (open.length === 0) return 0;
  await q
    .insert(accountMembers)
    .values(open.map((i) => ({ accountId: i.accountId, userId, role: i.role, createdAt: now })))
    .onConflictDoNothing();
  const accepted = await q
    .update(invitations)
    .set({ acceptedAt: now })
    .where(and(inArray(invitations.id, open.map((i) => i.id)), isNull(invitations.acceptedAt)))
    .returning({ id: invitations.id });
  return accepted.length;
}
