import { describe, expect, it } from 'vitest';
import { OUTBOX_LANES, outboxPayloads, parseOutboxPayload, type NewEventId } from '../../platform/events/outbox.js';

const interactive = (...ids: number[]): NewEventId[] => ids.map((id) => ({ id, lane: OUTBOX_LANES.interactive }));
const bulk = (...ids: number[]): NewEventId[] => ids.map((id) => ({ id, lane: OUTBOX_LANES.bulk }));

describe('outbox NOTIFY payloads', () => {
  it('names consecutive ids as ranges and the rest one by one', () => {
    expect(outboxPayloads(interactive(41, 42, 43, 45, 47, 48))).toEqual(['41-43,45,47-48']);
    expect(parseOutboxPayload('41-43,45,47-48')).toEqual({ lane: OUTBOX_LANES.interactive, ids: [41, 42, 43, 45, 47, 48] });
  });

  it('gives each lane its own payload, bulk ones marked', () => {
    expect(outboxPayloads([...bulk(10, 11, 12), ...interactive(13)])).toEqual(['13', 'b:10-12']);
    expect(parseOutboxPayload('b:10-12')).toEqual({ lane: OUTBOX_LANES.bulk, ids: [10, 11, 12] });
  });

  it('sorts what it is given and sends nothing for no ids', () => {
    expect(outboxPayloads(interactive(9, 7, 8))).toEqual(['7-9']);
    expect(outboxPayloads([])).toEqual([]);
  });

  it('splits scattered ids into payloads that each fit a NOTIFY, losing none', () => {
    const ids = Array.from({ length: 5000 }, (_, i) => 1_000_000_000 + i * 2);
    const payloads = outboxPayloads(bulk(...ids));
    expect(payloads.length).toBeGreaterThan(1);
    for (const payload of payloads) expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(7000);
    expect(payloads.flatMap((p) => parseOutboxPayload(p)?.ids ?? [])).toEqual(ids);
  });

  it('reads nothing from an empty, foreign or absurd payload', () => {
    for (const payload of ['', 'b:', '{"origin":"x","ids":["1"]}', '5-3', '1-99999999', '1,,2', 'x:1']) {
      expect(parseOutboxPayload(payload)).toBeNull();
    }
  });
});
