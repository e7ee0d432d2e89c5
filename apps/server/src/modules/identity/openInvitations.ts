import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { ProfileInvitation } from '@parley/shared';
import type { Queryable } from '../../platform/db/client.js';
import { accounts, invitations } from '../../platform/db/schema/index.js';
import { normalizeEmail } from './users.js';

/**
 * The open invitations to an address (not accepted, to accounts still open), oldest first, as the
 * account's name: what the user's own address may learn, the invitation e-mail having said as much.
 */
export async function openInvitationsFor(q: Queryable, email: string): Promise<ProfileInvitation[]> {
  const rows = await q
    .select({ accountName: accounts.name, invitedAt: invitations.createdAt })
    .from(invitations)
    .innerJoin(accounts, eq(accounts.id, invitations.accountId))
    .where(
      and(
        sql`lower(${invitations.email}) = ${normalizeEmail(email)}`,
        isNull(invitations.acceptedAt),
        eq(accounts.status, 'active'),
      ),
    )
    .orderBy(asc(invitations.createdAt), asc(invitations.id));
  return rows.map((row) => ({ accountName: row.accountName, invitedAt: row.invitedAt.toISOString() }));
}
