import { describe, expect, it } from 'vitest';
import { ExpiringCache } from './accessCache.js';

describe('ExpiringCache', () => {
  it('answers an entry until its time, then forgets it', () => {
    const clock = { now: 1000 };
    const cache = new ExpiringCache<string>(10, () => clock.now);
    cache.set('a', 'one', 1500);
    cache.set('past', 'never', 1000);
    expect(cache.get('a')).toBe('one');
    expect(cache.get('past')).toBeUndefined();
    clock.now = 1500;
    expect(cache.get('a')).toBeUndefined();
  });

  it('lets the oldest go once full, and forgets by prefix', () => {
    const cache = new ExpiringCache<number>(2, () => 0);
    cache.set('acc1|x', 1, 10);
    cache.set('acc1|y', 2, 10);
    cache.set('acc2|x', 3, 10);
    expect(cache.get('acc1|x')).toBeUndefined();
    expect(cache.get('acc1|y')).toBe(2);
    cache.deletePrefix('acc1|');
    expect(cache.get('acc1|y')).toBeUndefined();
    expect(cache.get('acc2|x')).toBe(3);
  });
});
