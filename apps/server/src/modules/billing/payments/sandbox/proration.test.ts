import { describe, expect, it } from 'vitest';
import { planCharge, prorateCents, settleWithCredit, type SandboxSubscriptionState } from './proration.js';

const starter = { id: 'starter', name: 'Starter', price: '29.0000' };
const growth = { id: 'growth', name: 'Growth', price: '99.0000' };
// January 2027: 31 days, 2,678,400 seconds.
const onStarter: SandboxSubscriptionState = { plan: starter, periodStart: '2027-01-01T00:00:00.000Z', periodEnd: '2027-02-01T00:00:00.000Z' };

describe('sandbox proration', () => {
  it('prorates by the second and rounds half up to the cent, in integers', () => {
    expect(prorateCents(2900, 1_339_200n, 2_678_400n)).toBe(1450);
    expect(prorateCents(9900, 691_200n, 2_678_400n)).toBe(2555); // 2554.84
    expect(prorateCents(1, 1n, 2n)).toBe(1); // half a cent rounds up
    expect(prorateCents(2900, 0n, 2_678_400n)).toBe(0);
    expect(() => prorateCents(2900, 1n, 0n)).toThrow();
  });

  it('credits the unused time on the old price and charges the remaining time on the new one, keeping the period', () => {
    const charge = planCharge(onStarter, growth, new Date('2027-01-16T12:00:00.000Z'));
    expect(charge.lines).toEqual([
      { key: 'unused', description: 'Unused time on Starter after 16 Jan 2027', cents: -1450 },
      { key: 'remaining', description: 'Remaining time on Growth after 16 Jan 2027', cents: 4950 },
    ]);
    expect(charge.state).toEqual({ plan: growth, periodStart: onStarter.periodStart, periodEnd: onStarter.periodEnd });
  });

  it('charges the full difference on the first second and a new month once the period is over or without one', () => {
    const first = planCharge(onStarter, growth, new Date(onStarter.periodStart));
    expect(first.lines.map((l) => l.cents)).toEqual([-2900, 9900]);
    const now = new Date('2027-02-03T10:00:00.000Z');
    for (const current of [null, onStarter]) {
      const fresh = planCharge(current, growth, now);
      expect(fresh.lines).toEqual([{ key: 'plan', description: 'Growth plan, monthly', cents: 9900 }]);
      expect(fresh.state).toEqual({ plan: growth, periodStart: now.toISOString(), periodEnd: '2027-03-03T10:00:00.000Z' });
    }
  });

  it('keeps a net credit as credit balance and pays the next charge from it first', () => {
    const credit = settleWithCredit([{ key: 'unused', description: 'u', cents: -2555 }, { key: 'remaining', description: 'r', cents: 748 }], 0);
    expect(credit).toMatchObject({ totalCents: -1807, creditCents: 1807 });
    const partly = settleWithCredit([{ key: 'remaining', description: 'r', cents: 3484 }], 1807);
    expect(partly.totalCents).toBe(1677);
    expect(partly.creditCents).toBe(0);
    expect(partly.lines.at(-1)).toEqual({ key: 'balance', description: 'Applied balance (credit of USD 18.0700)', cents: -1807 });
    expect(settleWithCredit([{ key: 'remaining', description: 'r', cents: 1000 }], 1500)).toMatchObject({ totalCents: 0, creditCents: 500 });
    expect(settleWithCredit([{ key: 'remaining', description: 'r', cents: 1000 }], 0).lines).toHaveLength(1);
  });
});
