import { and, eq } from 'drizzle-orm';
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
