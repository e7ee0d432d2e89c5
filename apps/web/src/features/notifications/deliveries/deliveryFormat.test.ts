import { describe, expect, it } from 'vitest';
import { attemptOutcome, durationText, prettyBody } from './deliveryFormat';

describe('delivery formatting', () => {
  it('indents a JSON body and leaves anything else as it is', () => {
    expect(prettyBody('{"type":"message-received","data":{"id":1}}')).toBe('{\n  "type": "message-received",\n  "data": {\n    "id": 1\n  }\n}');
    expect(prettyBody('not json {')).toBe('not json {');
  });

  it('reads durations in ms under a second, in seconds above', () => {
    expect(durationText(undefined)).toBe('—');
    expect(durationText(180)).toBe('180 ms');
    expect(durationText(2400)).toBe('2.4 s');
  });

  it('says what an attempt got', () => {
    expect(attemptOutcome(undefined)).toBe('Not tried yet');
    expect(attemptOutcome({ attempt: 1, at: '2026-01-01T00:00:00.000Z', durationMs: 5, statusCode: 503 })).toBe('HTTP 503');
    expect(attemptOutcome({ attempt: 2, at: '2026-01-01T00:00:00.000Z', durationMs: 10000, error: 'Timed out after 10 s' })).toBe('Timed out after 10 s');
    expect(attemptOutcome({ attempt: 3, at: '2026-01-01T00:00:00.000Z', durationMs: 0 })).toBe('No answer');
  });
});
