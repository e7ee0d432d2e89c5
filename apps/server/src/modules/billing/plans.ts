import { sql } from 'drizzle-orm';
import type { PlanPricing } from '@parley/shared';
import type { Queryable } from '../../platform/db/client.js';
import { plans } from '../../platform/db/schema/index.js';

export const TRIAL_PLAN_ID = 'trial';

export interface CatalogPlan {
  id: string;
  name: string;
  /** Monthly charge, USD, 4 decimals. */
  price: string;
  isTrial: boolean;
  listed: boolean;
  pricing: PlanPricing;
  maxConversationPeriodDays: number | null;
  sort: number;
}

/** Prices per segment; GB and AU carriers take no MMS from US-style long codes, so those have SMS only. */
const pricing = (us: string, mms: string, gb: string, au: string, fallback: string): PlanPricing => ({
  US: { sms: { outbound: us }, mms: { outbound: mms } },
  CA: { sms: { outbound: us }, mms: { outbound: mms } },
  GB: { sms: { outbound: gb } },
  AU: { sms: { outbound: au } },
  DEFAULT: { sms: { outbound: fallback } },
});

/** The plans every deployment offers (docs/decisions.md says why these prices). */
export const planCatalog: readonly CatalogPlan[] = [
  {
    id: TRIAL_PLAN_ID,
    name: 'Trial',
    price: '0.0000',
    isTrial: true,
    listed: false,
    pricing: pricing('0.0120', '0.0300', '0.0480', '0.0520', '0.0800'),
    maxConversationPeriodDays: 7,
    sort: 0,
  },
  {
    id: 'starter',
    name: 'Starter',
    price: '29.0000',
    isTrial: false,
    listed: true,
    pricing: pricing('0.0120', '0.0300', '0.0480', '0.0520', '0.0800'),
    maxConversationPeriodDays: 30,
    sort: 10,
  },
  {
    id: 'growth',
    name: 'Growth',
    price: '99.0000',
    isTrial: false,
    listed: true,
    pricing: pricing('0.0099', '0.0250', '0.0440', '0.0480', '0.0750'),
    maxConversationPeriodDays: 60,
    sort: 20,
  },
  {
    id: 'scale',
    name: 'Scale',
    price: '299.0000',
    isTrial: false,
    listed: true,
    pricing: pricing('0.0079', '0.0200', '0.0400', '0.0440', '0.0700'),
    maxConversationPeriodDays: 90,
    sort: 30,
  },
];

/**
 * Writes the catalog over the plans table, at every start, so a price change in code reaches every
 * deployment. Idempotent and safe for processes starting together (one upsert statement). Plans that
 * left the catalog stay: accounts may still be on them.
 */
export async function seedPlans(q: Queryable): Promise<void> {
  await q
    .insert(plans)
    .values(planCatalog.map((plan) => ({ ...plan })))
    .onConflictDoUpdate({
      target: plans.id,
      set: {
        name: sql`excluded.name`,
        price: sql`excluded.price`,
        isTrial: sql`excluded.is_trial`,
        listed: sql`excluded.listed`,
        pricing: sql`excluded.pricing`,
        maxConversationPeriodDays: sql`excluded.max_conversation_period_days`,
        sort: sql`excluded.sort`,
      },
    });
}
