import { asc, eq } from 'drizzle-orm';
import { formatMoney, PREMIUM_SUPPORT_FROM, type CatalogPlan, type PlanPricing } from '@parley/shared';
import type { Queryable } from '../../platform/db/client.js';
import { plans, type PlanRow } from '../../platform/db/schema/index.js';

/** A decimal string in ten-thousandths, exactly. */
const units = (amount: string): bigint => BigInt(formatMoney(amount).replace('.', ''));

/** Whole segments a monthly price buys at a rate per segment (spec: included segments = price / rate). */
export function includedSegments(price: string, rate: string): number {
  const per = units(rate);
  return per === 0n ? 0 : Number(units(price) / per);
}

/** The account's country's prices, else DEFAULT's. */
function pricesFor(pricing: PlanPricing, country: string): { country: string; sms: string; mms: string | null } {
  const own = pricing[country];
  const chosen = own ?? pricing.DEFAULT;
  return { country: own ? country : 'DEFAULT', sms: chosen?.sms.outbound ?? '0', mms: chosen?.mms?.outbound ?? null };
}

export function presentCatalogPlan(plan: PlanRow, country: string, largest: boolean, currentPlanId: string): CatalogPlan {
  const pricing = plan.pricing as PlanPricing;
  const price = formatMoney(plan.price);
  const rates = pricesFor(pricing, country);
  return {
    id: plan.id,
    name: plan.name,
    price,
    pricing,
    supportLevel: units(price) >= units(PREMIUM_SUPPORT_FROM) ? 'Premium' : 'Standard',
    includedSegments: {
      country: rates.country,
      sms: includedSegments(price, rates.sms),
      mms: rates.mms === null ? null : includedSegments(price, rates.mms),
    },
    contactUs: largest,
    current: plan.id === currentPlanId,
  };
}

/** The plans on offer (the free and trial plans hidden), cheapest first. */
export async function listedPlans(q: Queryable): Promise<PlanRow[]> {
  const rows = await q.select().from(plans).where(eq(plans.listed, true)).orderBy(asc(plans.price), asc(plans.sort), asc(plans.id));
  return rows.filter((plan) => !plan.isTrial && units(plan.price) > 0n);
}
