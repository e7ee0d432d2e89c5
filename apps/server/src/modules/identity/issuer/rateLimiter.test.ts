import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rateLimiter.js';

describe('RateLimiter', () => {
  it('allows the limit per window and key, then refuses until the window passes', () => {
    let now = 0;
    const limiter = new RateLimiter(3, 1000, () => now);
    expect([1, 2, 3, 4].map(() => limiter.take('a'))).toEqual([true, true, true, false]);
    expect(limiter.take('b')).toBe(true);
    now = 999;
    expect(limiter.take('a')).toBe(false);
    now = 1000;
    expect(limiter.take('a')).toBe(true);
  });

  it('tells whether a key is over its limit without counting', () => {
    let now = 0;
    const limiter = new RateLimiter(2, 1000, () => now);
    expect(limiter.isOver('a')).toBe(false);
    limiter.take('a');
    expect(limiter.isOver('a')).toBe(false);
    limiter.take('a');
    expect([limiter.isOver('a'), limiter.isOver('a'), limiter.isOver('b')]).toEqual([true, true, false]);
    now = 1000;
    expect(limiter.isOver('a')).toBe(false);
  });
});
