import { and, eq } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client.js';
import { accounts, plans, type AccountRow, type PlanRow } from '../../platform/db/schema/index.js';

export interface AccountWithPlan {
  account: AccountRow;
  plan: PlanRow;
}

/** An open account and its plan; null for an unknown or closed one. */
export async function loadAccount(q: Queryable, accountId: string): Promise<AccountWithPlan | null> {
  const [row] = await q
    .select({ account: accounts, plan: plans })
    .from(accounts)
    .innerJoin(plans, eq(plans.id, accounts.planId))
    .where(and(eq(accounts.id, accountId), eq(accounts.status, 'active')))
    .limit(1);
  return row ?? null;
}
