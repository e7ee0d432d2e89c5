import { and, asc, eq } from 'drizzle-orm';
import type { Role } from '@parley/shared';
import type { Queryable } from '../../platform/db/client.js';
import { accountMembers, accounts } from '../../platform/db/schema/index.js';
import type { Principal } from './authenticator.js';

/**
 * The principal's role in an open account, or null when it has none (no membership, another account,
 * a closed account). An API client acts as its account's administrator, in that account only.
 */
export async function roleInAccount(q: Queryable, principal: Principal, accountId: string): Promise<Role | null> {
  if (principal.clientId !== undefined) {
    if (!principal.accountIds.includes(accountId)) return null;
    const [account] = await q
      .select({ status: accounts.status })
      .from(accounts)
      .where(eq(accounts.id, accountId))
      .limit(1);
    return account?.status === 'active' ? 'Administrator' : null;
  }
  const [row] = await q
    .select({ role: accountMembers.role })
    .from(accountMembers)
    .innerJoin(accounts, eq(accounts.id, accountMembers.accountId))
    .where(
      and(
        eq(accountMembers.accountId, accountId),
        eq(accountMembers.userId, principal.userId),
        eq(accounts.status, 'active'),
      ),
    )
    .limit(1);
  return row?.role ?? null;
}

/**
 * The accounts a principal may act in, at most `limit` of them (two tell one from several): an API
 * client's own account, a person's memberships of open accounts.
 */
export async function openAccountsOf(q: Queryable, principal: Principal, limit: number): Promise<string[]> {
  // An API client acts in its account alone (roleInAccount checks that it is open).
  if (principal.clientId !== undefined) return principal.accountIds.slice(0, limit);
  const rows = await q
    .select({ id: accountMembers.accountId })
    .from(accountMembers)
    .innerJoin(accounts, eq(accounts.id, accountMembers.accountId))
    .where(and(eq(accountMembers.userId, principal.userId), eq(accounts.status, 'active')))
    .orderBy(asc(accountMembers.accountId))
    .limit(limit);
  return rows.map((row) => row.id);
}
