import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bulkUuidV7 } from './ids.js';

describe('bulkUuidV7', () => {
  it('makes version 7 ids, unique, ordered by time across milliseconds', () => {
    const ids = Array.from({ length: 20_000 }, (_, i) => bulkUuidV7(1_750_000_000_000 + Math.floor(i / 1000)));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(z.uuidv7().safeParse(id).success, id).toBe(true);
    expect(ids[0]?.slice(0, 13)).toBe(`${(1_750_000_000_000).toString(16).padStart(12, '0').slice(0, 8)}-${(1_750_000_000_000).toString(16).padStart(12, '0').slice(8)}`);
    const firstOfEachMs = ids.filter((_, i) => i % 1000 === 0);
    expect([...firstOfEachMs].sort()).toEqual(firstOfEachMs);
  });
});
