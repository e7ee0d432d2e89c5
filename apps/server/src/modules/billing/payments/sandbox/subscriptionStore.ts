import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../../../platform/db/client.js';
import { sandboxObjects } from '../../../../platform/db/schema/index.js';
import type { SandboxSubscriptionState } from './proration.js';

/** A plan change to write once it is paid: the subscription's new state and what it adds to (or takes from) the credit balance. */
export interface SubscriptionCommit {
  subscriptionId: string;
  customerId: string;
  state: SandboxSubscriptionState;
  /** Whole cents; a change, not the new balance, so a commit approved later adds to what is there then. */
  creditChangeCents: number;
  /**
   * Credit already taken from the balance when the change was held for authentication (so no other change
   * spends it meanwhile, as Stripe applies a balance when it finalises the invoice); given back if refused.
   */
  heldCreditCents?: number;
}

/** The subscription's plan and period; null for one the sandbox kept no state for (made before it prorated). */
export async function subscriptionStateOf(tx: Tx, subscriptionId: string): Promise<SandboxSubscriptionState | null> {
  const [row] = await tx
    .select({ data: sandboxObjects.data })
    .from(sandboxObjects)
    .where(and(eq(sandboxObjects.kind, 'subscription'), eq(sandboxObjects.id, subscriptionId)))
    .limit(1);
  return row ? (row.data as SandboxSubscriptionState) : null;
}

/** The customer's credit balance in whole cents, its row locked so two changes do not spend it twice. */
export async function creditOf(tx: Tx, customerId: string): Promise<number> {
  const [row] = await tx
    .select({ data: sandboxObjects.data })
    .from(sandboxObjects)
    .where(and(eq(sandboxObjects.kind, 'customer'), eq(sandboxObjects.id, customerId)))
    .for('update')
    .limit(1);
  const credit = (row?.data as { creditCents?: number } | undefined)?.creditCents;
  return credit ?? 0;
}

/** Adds whole cents (negative: takes them) to the customer's credit balance. */
export async function adjustCredit(tx: Tx, customerId: string, cents: number): Promise<void> {
  if (cents === 0) return;
  await tx
    .update(sandboxObjects)
    .set({
      data: sql`${sandboxObjects.data} || jsonb_build_object('creditCents', coalesce((${sandboxObjects.data}->>'creditCents')::integer, 0) + ${cents}::integer)`,
    })
    .where(and(eq(sandboxObjects.kind, 'customer'), eq(sandboxObjects.id, customerId)));
}

export async function commitSubscription(tx: Tx, commit: SubscriptionCommit): Promise<void> {
  await tx
    .insert(sandboxObjects)
    .values({ id: commit.subscriptionId, kind: 'subscription', customerId: commit.customerId, data: commit.state })
    .onConflictDoUpdate({ target: sandboxObjects.id, set: { data: sql`excluded.data` } });
  await adjustCredit(tx, commit.customerId, commit.creditChangeCents);
}

/**
 * Holds a change for the card holder's answer: the credit it spends is taken now, and the commit left to
 * write on approval carries the rest of its credit change.
 */
export async function holdSubscription(tx: Tx, commit: SubscriptionCommit): Promise<SubscriptionCommit> {
  const taken = Math.min(0, commit.creditChangeCents);
  await adjustCredit(tx, commit.customerId, taken);
  return { ...commit, creditChangeCents: commit.creditChangeCents - taken, heldCreditCents: -taken };
}

/** A held change refused: the credit it had taken goes back to the balance. */
export async function releaseSubscription(tx: Tx, commit: SubscriptionCommit): Promise<void> {
  await adjustCredit(tx, commit.customerId, commit.heldCreditCents ?? 0);
}
