import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { PLAN_FOLLOW_MS, planRefetchInterval, resetBillingCache } from './queries';

describe('following a plan change', () => {
  const follow = { planId: 'starter', until: 10_000 };

  it('asks again while the account is not yet on the chosen plan, until the follow ends', () => {
    expect(planRefetchInterval(follow, 'trial', 5_000)).toBe(PLAN_FOLLOW_MS);
    expect(planRefetchInterval(follow, undefined, 5_000)).toBe(PLAN_FOLLOW_MS);
    expect(planRefetchInterval(follow, 'starter', 5_000)).toBe(false);
    expect(planRefetchInterval(follow, 'trial', 10_000)).toBe(false);
    expect(planRefetchInterval(null, 'trial', 5_000)).toBe(false);
  });
});

describe('Reset Cache', () => {
  it("asks again for the account's plan, prices, card and invoices, and nothing else the account holds", async () => {
    const client = new QueryClient();
    const keep = [['accounts', 'a1', 'contacts'], ['accounts', 'a2'], ['accounts', 'a2', 'plan']];
    const drop = [['accounts', 'a1'], ['accounts', 'a1', 'plan'], ['accounts', 'a1', 'plans'], ['accounts', 'a1', 'paymentsource'], ['accounts', 'a1', 'invoices'], ['accounts', 'a1', 'charges', { limit: 10 }]];
    for (const key of [...keep, ...drop]) client.setQueryData(key, { cached: true });
    await resetBillingCache(client, 'a1');
    for (const key of keep) expect(client.getQueryState(key)?.isInvalidated, JSON.stringify(key)).toBe(false);
    for (const key of drop) expect(client.getQueryState(key)?.isInvalidated, JSON.stringify(key)).toBe(true);
  });
});
