import { describe, expect, it } from 'vitest';
import { announcementPayloads } from './fanout.js';

describe('announcementPayloads', () => {
  it('lists every id once, in order, in payloads that fit a NOTIFY', () => {
    const ids = Array.from({ length: 3000 }, (_, i) => String(1_000_000_000 + i));
    const payloads = announcementPayloads('origin-a', ids);
    expect(payloads.length).toBeGreaterThan(1);
    for (const payload of payloads) expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(7000);
    const parsed = payloads.map((p) => JSON.parse(p) as { origin: string; ids: string[] });
    expect(parsed.every((p) => p.origin === 'origin-a')).toBe(true);
    expect(parsed.flatMap((p) => p.ids)).toEqual(ids);
  });

  it('sends one payload for a small round and none for an empty one', () => {
    expect(announcementPayloads('o', ['1', '2'])).toEqual([JSON.stringify({ origin: 'o', ids: ['1', '2'] })]);
    expect(announcementPayloads('o', [])).toEqual([]);
  });
});
