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

export async function commitSubscription(tx: Tx, commit: SubscriptionCommit): Promise<void> {
  await tx
    .insert(sandboxObjects)
    .values({ id: commit.subscriptionId, kind: 'subscription', customerId: commit.customerId, data: commit.state })
    .onConflictDoUpdate({ target: sandboxObjects.id, set: { data: sql`excluded.data` } });
  await tx
    .update(sandboxObjects)
    .set({
      data: sql`${sandboxObjects.data} || jsonb_build_object('creditCents', coalesce((${sandboxObjects.data}->>'creditCents')::integer, 0) + ${commit.creditChangeCents}::integer)`,
    })
    .where(and(eq(sandboxObjects.kind, 'customer'), eq(sandboxObjects.id, commit.customerId)));
}
