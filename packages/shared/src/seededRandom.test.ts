import { describe, expect, it } from 'vitest';
import { seededRandom } from './seededRandom.js';

describe('seededRandom', () => {
  it('replays the same numbers for a seed and others for another seed', () => {
    const take = (seed: number) => {
      const random = seededRandom(seed);
      return Array.from({ length: 5 }, () => random());
    };
    expect(take(42)).toEqual(take(42));
    expect(take(42)).not.toEqual(take(43));
  });

  it('stays in [0, 1) and spreads over it', () => {
    const random = seededRandom(7);
    const values = Array.from({ length: 10_000 }, () => random());
    expect(values.every((v) => v >= 0 && v < 1)).toBe(true);
    const low = values.filter((v) => v < 0.5).length;
    expect(low).toBeGreaterThan(4_700);
    expect(low).toBeLessThan(5_300);
  });
});
