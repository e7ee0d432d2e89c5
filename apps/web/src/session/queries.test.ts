import { describe, expect, it } from 'vitest';
import { BALANCE_FOLLOW_MS, balanceRefetchInterval } from './queries';

describe('balanceRefetchInterval', () => {
  const follow = { from: '20.0000', until: 1_000 };

  it('asks again while the followed balance has not moved and the follow runs', () => {
    expect(balanceRefetchInterval(follow, '20.0000', 999)).toBe(BALANCE_FOLLOW_MS);
    expect(balanceRefetchInterval(follow, undefined, 0)).toBe(BALANCE_FOLLOW_MS);
  });

  it('stops once the balance moved, the follow expired, or nothing is followed', () => {
    expect(balanceRefetchInterval(follow, '40.0000', 10)).toBe(false);
    expect(balanceRefetchInterval(follow, '20.0000', 1_000)).toBe(false);
    expect(balanceRefetchInterval(null, '20.0000', 10)).toBe(false);
  });
});
