import { describe, expect, it } from 'vitest';
import { DELIVERY_GIVE_UP_MS, nextRetryDelay, RETRY_DELAYS_MS } from './retrySchedule.js';

const hour = 3_600_000;

describe('the retry schedule', () => {
  it('waits 5 s, 5 min, 30 min, 2 h, 5 h, then 10 h between tries', () => {
    const created = new Date('2026-12-01T00:00:00Z');
    const delays = [1, 2, 3, 4, 5, 6, 7].map((attempts) => nextRetryDelay(attempts, created, created));
    expect(delays).toEqual([5_000, 300_000, 1_800_000, 2 * hour, 5 * hour, 10 * hour, 10 * hour]);
    expect(RETRY_DELAYS_MS.at(-1)).toBe(10 * hour);
  });

  it('gives up once the next try would come more than 3 days after the event', () => {
    const created = new Date('2026-12-01T00:00:00Z');
    const nearlyThreeDays = new Date(created.getTime() + DELIVERY_GIVE_UP_MS - 11 * hour);
    expect(nextRetryDelay(9, created, nearlyThreeDays)).toBe(10 * hour);
    const later = new Date(created.getTime() + DELIVERY_GIVE_UP_MS - 9 * hour);
    expect(nextRetryDelay(10, created, later)).toBeNull();
    // About a dozen tries over the three days.
    let at = created.getTime();
    let tries = 1;
    for (;;) {
      const delay = nextRetryDelay(tries, created, new Date(at));
      if (delay === null) break;
      at += delay;
      tries += 1;
    }
    expect(tries).toBeGreaterThanOrEqual(10);
    expect(tries).toBeLessThanOrEqual(14);
  });
});
