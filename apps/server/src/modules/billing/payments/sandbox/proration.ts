import { fromCents, toCents } from '../provider.js';

/** A plan as the sandbox's subscription holds it (price: USD, 4 decimals, whole cents). */
export interface SandboxPlan {
  id: string;
  name: string;
  price: string;
}

/** The sandbox's subscription: its plan and the current period (ISO times); the period's start is its anchor. */
export interface SandboxSubscriptionState {
  plan: SandboxPlan;
  periodStart: string;
  periodEnd: string;
}

export interface ChargeLine {
  key: string;
  description: string;
  /** Whole cents; negative for a credit. */
  cents: number;
}

export interface PlanCharge {
  description: string;
  lines: ChargeLine[];
  state: SandboxSubscriptionState;
}

const addMonth = (date: Date): Date => {
  const next = new Date(date);
  next.setUTCMonth(next.getUTCMonth() + 1);
  return next;
};

const wholeSeconds = (from: Date, to: Date): bigint => BigInt(Math.floor((to.getTime() - from.getTime()) / 1000));

/** Stripe's date in a proration line ('16 Jan 2027'). */
const lineDate = (date: Date): string =>
  date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

/**
 * cents × remaining / period, rounded half up to the cent, in integers: Stripe prorates by the second and
 * rounds each line to the cent.
 */
export function prorateCents(cents: number, remainingSeconds: bigint, periodSeconds: bigint): number {
  if (periodSeconds <= 0n) throw new Error('an empty period');
  const scaled = BigInt(cents) * remainingSeconds;
  return Number((2n * scaled + periodSeconds) / (2n * periodSeconds));
}

/**
 * What a plan change charges, as Stripe's always_invoice does: mid period, a credit for the unused time on
 * the old price and a charge for the remaining time on the new one, the period kept; with no subscription
 * or a period already over (the sandbox issues no renewals), the new plan's month from now.
 */
export function planCharge(current: SandboxSubscriptionState | null, plan: SandboxPlan, now: Date): PlanCharge {
  const periodStart = current === null ? null : new Date(current.periodStart);
  const periodEnd = current === null ? null : new Date(current.periodEnd);
  if (current === null || periodStart === null || periodEnd === null || now >= periodEnd || now < periodStart) {
    return {
      description: `${plan.name} plan, monthly`,
      lines: [{ key: 'plan', description: `${plan.name} plan, monthly`, cents: toCents(plan.price) }],
      state: { plan, periodStart: now.toISOString(), periodEnd: addMonth(now).toISOString() },
    };
  }
  const period = wholeSeconds(periodStart, periodEnd);
  const remaining = wholeSeconds(now, periodEnd);
  const from = lineDate(now);
  return {
    description: `${plan.name} plan from ${from}, prorated`,
    lines: [
      { key: 'unused', description: `Unused time on ${current.plan.name} after ${from}`, cents: -prorateCents(toCents(current.plan.price), remaining, period) },
      { key: 'remaining', description: `Remaining time on ${plan.name} after ${from}`, cents: prorateCents(toCents(plan.price), remaining, period) },
    ],
    state: { plan, periodStart: current.periodStart, periodEnd: current.periodEnd },
  };
}

export interface SettledCharge {
  lines: ChargeLine[];
  /** Sum of the lines: what the card is charged, or (negative) the credit added to the balance. */
  totalCents: number;
  /** The customer's credit balance after this invoice, whole cents. */
  creditCents: number;
}

/**
 * Applies the customer's credit balance as Stripe does: a charge is paid from the credit first (an
 * 'Applied balance' line); a net credit is kept as credit for the next invoice.
 */
export function settleWithCredit(lines: readonly ChargeLine[], creditCents: number): SettledCharge {
  const subtotal = lines.reduce((sum, line) => sum + line.cents, 0);
  if (subtotal < 0) return { lines: [...lines], totalCents: subtotal, creditCents: creditCents - subtotal };
  const applied = Math.min(creditCents, subtotal);
  if (applied === 0) return { lines: [...lines], totalCents: subtotal, creditCents };
  return {
    lines: [...lines, { key: 'balance', description: `Applied balance (credit of USD ${fromCents(creditCents)})`, cents: -applied }],
    totalCents: subtotal - applied,
    creditCents: creditCents - applied,
  };
}
