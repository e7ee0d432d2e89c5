import { describe, expect, it } from 'vitest';
import { outboxPayloads, parseOutboxPayload } from './outbox.js';

describe('outbox NOTIFY payloads', () => {
  it('names consecutive ids as ranges and the rest one by one', () => {
    expect(outboxPayloads([41, 42, 43, 45, 47, 48])).toEqual(['41-43,45,47-48']);
    expect(parseOutboxPayload('41-43,45,47-48')).toEqual([41, 42, 43, 45, 47, 48]);
  });

  it('sorts what it is given and sends nothing for no ids', () => {
    expect(outboxPayloads([9, 7, 8])).toEqual(['7-9']);
    expect(outboxPayloads([])).toEqual([]);
  });

  it('splits scattered ids into payloads that each fit a NOTIFY, losing none', () => {
    const ids = Array.from({ length: 5000 }, (_, i) => 1_000_000_000 + i * 2);
    const payloads = outboxPayloads(ids);
    expect(payloads.length).toBeGreaterThan(1);
    for (const payload of payloads) expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(7000);
    expect(payloads.flatMap(parseOutboxPayload)).toEqual(ids);
  });

  it('reads nothing from an empty, foreign or absurd payload', () => {
    expect(parseOutboxPayload('')).toEqual([]);
    expect(parseOutboxPayload('{"origin":"x","ids":["1"]}')).toEqual([]);
    expect(parseOutboxPayload('5-3')).toEqual([]);
    expect(parseOutboxPayload('1-99999999')).toEqual([]);
    expect(parseOutboxPayload('1,,2')).toEqual([]);
  });
});
