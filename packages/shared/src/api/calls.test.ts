import { describe, expect, it } from 'vitest';
import { callDuration, callLine } from './calls.js';

describe('call lines', () => {
  it('names each status, with the duration where it says something', () => {
    expect(callLine({ status: 'missed', direction: 'inbound', durationSeconds: 0 })).toBe('Missed call');
    expect(callLine({ status: 'answered', direction: 'inbound', durationSeconds: 192 })).toBe('Call answered · 3 min 12 s');
    expect(callLine({ status: 'answered', direction: 'outbound', durationSeconds: 45 })).toBe('Outgoing call answered · 45 s');
    expect(callLine({ status: 'voicemail', direction: 'inbound', durationSeconds: 0 })).toBe('Voicemail');
    expect(callLine({ status: 'voicemail', direction: 'inbound', durationSeconds: 20 })).toBe('Voicemail · 20 s');
    expect(callLine({ status: 'busy', direction: 'inbound', durationSeconds: 0 })).toBe('Call: busy');
    expect(callLine({ status: 'failed', direction: 'outbound', durationSeconds: 0 })).toBe('Outgoing call failed');
  });

  it('writes durations in seconds, minutes and hours', () => {
    expect(callDuration(0)).toBe('0 s');
    expect(callDuration(120)).toBe('2 min');
    expect(callDuration(3720)).toBe('1 h 2 min');
    expect(callDuration(7200)).toBe('2 h');
  });
});
