import { eq, sql } from 'drizzle-orm';
import { TRIAL_DAYS, trialHasExpired } from '@parley/shared';
import type { Queryable } from '../../platform/db/client.js';
import { accounts, plans } from '../../platform/db/schema/index.js';
import { TrialExpiredError } from './chargeRefusals.js';

/*
 * The trial's one rule (docs/billing.md, Trial): an account on a trial plan may charge nothing from created +
 * TRIAL_DAYS on. It is read from the account's plan at the moment of the charge, so a plan chosen (the
 * account's plan no longer a trial) lifts it at once, and nothing has to run when a trial ends.
 */

/** Throws TrialExpiredError when an account on a trial plan created at `createdAt` has run out at `now`. */
export function requireOpenTrial(account: { isTrial: boolean; createdAt: Date }, now: Date): void {
  if (account.isTrial && trialHasExpired(account.createdAt, now)) throw new TrialExpiredError();
}

/**
 * The rule as a condition on `accounts` for the ledger's debit statement: true unless the account is on a
 * trial plan created at or before now − TRIAL_DAYS (the same instant as trialHasExpired).
 */
export function openTrialCondition(now: Date) {
  const cutoff = new Date(now.getTime() - TRIAL_DAYS * 24 * 60 * 60 * 1000).toISOString();
  return sql`(accounts.created_at > ${cutoff}::timestamptz
              or not exists (select 1 from plans tp where tp.id = accounts.plan_id and tp.is_trial))`;
}

/** Throws TrialExpiredError when the account is on a trial plan that has run out at `now`. */
export async function requireChargeableAccount(q: Queryable, accountId: string, now: Date): Promise<void> {
  const [row] = await q
    .select({ isTrial: plans.isTrial, createdAt: accounts.createdAt })
    .from(accounts)
    .innerJoin(plans, eq(plans.id, accounts.planId))
    .where(eq(accounts.id, accountId))
    .limit(1);
  if (row) requireOpenTrial(row, now);
}
