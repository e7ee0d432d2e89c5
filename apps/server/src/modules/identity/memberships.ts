import { and, asc, eq } from 'drizzle-orm';
import type { Role } from '@parley/shared';
import type { Queryable } from '../../platform/db/client.js';
import { accountMembers, accounts } from '../../platform/db/schema/index.js';
import { ExpiringCache } from './accessCache.js';
import type { Principal } from './authenticator.js';

/**
 * How long this process keeps a principal's role in an account (ms). Removing a member, changing a role or
 * closing the account forgets it at once in the process that did it (forgetAccountAccess); other processes
 * see the change within this time (docs/api.md, "Tokens and access").
 */
export const ROLE_CACHE_MS = 2_000;
const roles = new ExpiringCache<Role>(50_000);

const roleKey = (principal: Principal, accountId: string): string => `${accountId}|${principal.clientId ?? ''}|${principal.userId}`;

/**
 * roleInAccount, a granted role answered from this process's cache for up to ROLE_CACHE_MS. A refusal is
 * not kept: someone just invited or an account just opened is let in at once.
 */
export async function cachedRoleInAccount(q: Queryable, principal: Principal, accountId: string): Promise<Role | null> {
  const key = roleKey(principal, accountId);
  const cached = roles.get(key);
  if (cached !== undefined) return cached;
  const role = await roleInAccount(q, principal, accountId);
  if (role !== null) roles.set(key, role, Date.now() + ROLE_CACHE_MS);
  return role;
}

/** Forgets the cached roles in an account: call it once a change of members, roles or the account's state has committed. */
export function forgetAccountAccess(accountId: string): void {
  roles.deletePrefix(`${accountId}|`);
}

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
