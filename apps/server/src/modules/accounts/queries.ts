import { and, asc, count, eq, inArray } from 'drizzle-orm';
import type { ListQuery, Role } from '@parley/shared';
import type { Queryable } from '../../platform/db/client.js';
import { accountMembers, accounts, plans } from '../../platform/db/schema/index.js';
import type { Principal } from '../identity/index.js';
import type { AccountWithPlan } from '../billing/index.js';

export interface AccountOfPrincipal extends AccountWithPlan {
  role: Role;
}

/**
 * The open accounts a principal may act in, oldest first, with its role in each. An API client has
 * its own account only, as Administrator (as the guard treats it).
 */
export async function listAccountsOf(
  q: Queryable,
  principal: Principal,
  page: ListQuery,
): Promise<{ rows: AccountOfPrincipal[]; totalCount: number }> {
  if (principal.clientId !== undefined) {
    const where = and(inArray(accounts.id, [...principal.accountIds]), eq(accounts.status, 'active'));
    const [total] = await q.select({ n: count() }).from(accounts).where(where);
    const rows = await q
      .select({ account: accounts, plan: plans })
      .from(accounts)
      .innerJoin(plans, eq(plans.id, accounts.planId))
      .where(where)
      .orderBy(asc(accounts.createdAt), asc(accounts.id))
      .limit(page.limit)
      .offset(page.offset);
    return { rows: rows.map((r) => ({ ...r, role: 'Administrator' as const })), totalCount: total?.n ?? 0 };
  }
  const where = and(eq(accountMembers.userId, principal.userId), eq(accounts.status, 'active'));
  const [total] = await q
    .select({ n: count() })
    .from(accountMembers)
    .innerJoin(accounts, eq(accounts.id, accountMembers.accountId))
    .where(where);
  const rows = await q
    .select({ account: accounts, plan: plans, role: accountMembers.role })
    .from(accountMembers)
    .innerJoin(accounts, eq(accounts.id, accountMembers.accountId))
    .innerJoin(plans, eq(plans.id, accounts.planId))
    .where(where)
    .orderBy(asc(accounts.createdAt), asc(accounts.id))
    .limit(page.limit)
    .offset(page.offset);
  return { rows, totalCount: total?.n ?? 0 };
}
