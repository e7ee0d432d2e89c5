import { describe, expect, it } from 'vitest';
import { DEFAULT_QUIET_HOURS, isValidTimeZone, isWithinHours, localTimeOfDay, minutesOfDay, nextOpening } from './quietHours.js';

const at = (iso: string): Date => new Date(iso);
const day = { start: '08:00', end: '21:00' };
const opening = (iso: string, zone: string, window = day): string => nextOpening(at(iso), zone, window).toISOString();

describe('minutesOfDay', () => {
  it('reads HH:MM and refuses anything else', () => {
    expect(minutesOfDay('00:00')).toBe(0);
    expect(minutesOfDay('08:30')).toBe(510);
    expect(minutesOfDay('23:59')).toBe(1439);
    for (const bad of ['24:00', '8:00', '08:60', '0800', '', '08:00:00']) expect(() => minutesOfDay(bad)).toThrow(RangeError);
  });
});

describe('isWithinHours', () => {
  it('opens at the start minute and closes at the end minute (start inclusive, end exclusive)', () => {
    // New York is UTC-5 in January.
    expect(isWithinHours(at('2025-01-15T12:59:59Z'), 'America/New_York', day)).toBe(false);
    expect(isWithinHours(at('2025-01-15T13:00:00Z'), 'America/New_York', day)).toBe(true);
    expect(isWithinHours(at('2025-01-16T01:59:59Z'), 'America/New_York', day)).toBe(true);
    expect(isWithinHours(at('2025-01-16T02:00:00Z'), 'America/New_York', day)).toBe(false);
  });

  it("uses the recipient's zone: the same instant is evening in Los Angeles and noon in Tokyo", () => {
    const instant = at('2025-01-10T03:00:00Z');
    expect(isWithinHours(instant, 'America/Los_Angeles', day)).toBe(true); // 19:00 on the 9th
    expect(isWithinHours(instant, 'Asia/Tokyo', day)).toBe(true); // 12:00 on the 10th
    expect(isWithinHours(instant, 'Europe/London', day)).toBe(false); // 03:00
  });

  it('follows zones with half and three-quarter hour offsets', () => {
    // Kolkata is UTC+5:30 (02:30Z is 08:00 there), Kathmandu UTC+5:45 (02:15Z is 08:00).
    expect(isWithinHours(at('2025-01-10T02:29:00Z'), 'Asia/Kolkata', day)).toBe(false);
    expect(isWithinHours(at('2025-01-10T02:30:00Z'), 'Asia/Kolkata', day)).toBe(true);
    expect(isWithinHours(at('2025-01-10T02:14:00Z'), 'Asia/Kathmandu', day)).toBe(false);
    expect(isWithinHours(at('2025-01-10T02:15:00Z'), 'Asia/Kathmandu', day)).toBe(true);
  });

  it('wraps midnight when the start is after the end', () => {
    const night = { start: '22:00', end: '06:00' };
    expect(isWithinHours(at('2025-01-15T12:00:00Z'), 'UTC', night)).toBe(false);
    expect(isWithinHours(at('2025-01-15T22:00:00Z'), 'UTC', night)).toBe(true);
    expect(isWithinHours(at('2025-01-15T03:00:00Z'), 'UTC', night)).toBe(true);
    expect(isWithinHours(at('2025-01-15T06:00:00Z'), 'UTC', night)).toBe(false);
  });

  it('is open all day when the start equals the end', () => {
    expect(isWithinHours(at('2025-01-15T03:00:00Z'), 'UTC', { start: '09:00', end: '09:00' })).toBe(true);
  });

  it('defaults to 08:00-21:00, on', () => {
    expect(DEFAULT_QUIET_HOURS).toEqual({ enabled: true, start: '08:00', end: '21:00' });
  });
});

describe('nextOpening', () => {
  it('is the instant itself inside the window', () => {
    expect(opening('2025-01-15T15:00:00.123Z', 'America/New_York')).toBe('2025-01-15T15:00:00.123Z');
  });

  it('is today’s start before the window and tomorrow’s start after it', () => {
    expect(opening('2025-01-15T10:00:00Z', 'America/New_York')).toBe('2025-01-15T13:00:00.000Z'); // 05:00 → 08:00
    expect(opening('2025-01-16T03:30:00Z', 'America/New_York')).toBe('2025-01-16T13:00:00.000Z'); // 22:30 → 08:00
  });

  it('works east and west of UTC across the date line of the UTC day', () => {
    // 06:00Z: 22:00 on the 9th in Los Angeles → 08:00 PST on the 10th.
    expect(opening('2025-01-10T06:00:00Z', 'America/Los_Angeles')).toBe('2025-01-10T16:00:00.000Z');
    // 13:00Z: 22:00 in Tokyo → 08:00 JST on the 11th (23:00Z on the 10th).
    expect(opening('2025-01-10T13:00:00Z', 'Asia/Tokyo')).toBe('2025-01-10T23:00:00.000Z');
    // Auckland (UTC+13 in January): 18:00Z on the 10th is 07:00 on the 11th → 08:00 = 19:00Z.
    expect(opening('2025-01-10T18:00:00Z', 'Pacific/Auckland')).toBe('2025-01-10T19:00:00.000Z');
  });

  it('opens at the new offset on a spring-forward day (New York, 9 March 2025)', () => {
    // 01:30 EST (06:30Z): 08:00 is EDT that day, 12:00Z rather than 13:00Z.
    expect(opening('2025-03-09T06:30:00Z', 'America/New_York')).toBe('2025-03-09T12:00:00.000Z');
    // A start inside the gap (02:30 never happens): the window opens when the clock jumps to 03:00 EDT.
    expect(opening('2025-03-09T06:30:00Z', 'America/New_York', { start: '02:30', end: '21:00' })).toBe('2025-03-09T07:00:00.000Z');
    // The evening before the change closes at 21:00 EST and reopens at 08:00 EDT.
    expect(opening('2025-03-09T02:30:00Z', 'America/New_York')).toBe('2025-03-09T12:00:00.000Z');
  });

  it('opens at the old offset on a fall-back day (New York, 2 November 2025)', () => {
    // 01:00 EDT (05:00Z): 08:00 is EST that day, 13:00Z.
    expect(opening('2025-11-02T05:00:00Z', 'America/New_York')).toBe('2025-11-02T13:00:00.000Z');
    // A start that happens twice (01:30): the first one still ahead.
    const early = { start: '01:30', end: '05:00' };
    expect(opening('2025-11-02T05:10:00Z', 'America/New_York', early)).toBe('2025-11-02T05:30:00.000Z'); // 01:10 EDT
    expect(opening('2025-11-02T06:10:00Z', 'America/New_York', early)).toBe('2025-11-02T06:30:00.000Z'); // 01:10 EST
  });

  it('handles the clock changes of the other hemisphere and of Europe', () => {
    // Sydney moves to AEDT (UTC+11) at 02:00 on 5 October 2025: 01:00 AEST is 15:00Z on the 4th.
    expect(opening('2025-10-04T15:00:00Z', 'Australia/Sydney')).toBe('2025-10-04T21:00:00.000Z');
    // London moves to BST at 01:00 GMT on 30 March 2025: 00:30 GMT → 08:00 BST = 07:00Z.
    expect(opening('2025-03-30T00:30:00Z', 'Europe/London')).toBe('2025-03-30T07:00:00.000Z');
    // Gap start in London (01:30 never happens that day): 02:00 BST = 01:00Z.
    expect(opening('2025-03-30T00:30:00Z', 'Europe/London', { start: '01:30', end: '21:00' })).toBe('2025-03-30T01:00:00.000Z');
  });

  it('moves to the next day when a start lost in a gap falls past the end of a short window', () => {
    // 02:10-02:50 does not exist on 9 March in New York; 3:00 is past its end, so 10 March 02:10 EDT.
    expect(opening('2025-03-09T06:30:00Z', 'America/New_York', { start: '02:10', end: '02:50' })).toBe('2025-03-10T06:10:00.000Z');
  });

  it('opens a window that wraps midnight at its start', () => {
    const night = { start: '22:00', end: '06:00' };
    expect(opening('2025-01-15T12:00:00Z', 'UTC', night)).toBe('2025-01-15T22:00:00.000Z');
    expect(opening('2025-01-15T06:00:00Z', 'UTC', night)).toBe('2025-01-15T22:00:00.000Z');
  });

  it('always lands inside the window and never before the instant (a sweep over two years in several zones)', () => {
    const zones = ['America/New_York', 'America/Los_Angeles', 'Europe/London', 'Australia/Sydney', 'Asia/Kolkata', 'Pacific/Chatham'];
    const windows = [day, { start: '22:00', end: '06:00' }, { start: '02:30', end: '03:30' }];
    for (const zone of zones) {
      for (const window of windows) {
        for (let t = Date.UTC(2025, 0, 1); t < Date.UTC(2027, 0, 1); t += 13 * 3_600_000 + 7 * 60_000) {
          const result = nextOpening(new Date(t), zone, window);
          expect(result.getTime()).toBeGreaterThanOrEqual(t);
          expect(result.getTime() - t).toBeLessThan(2 * 86_400_000);
          expect(isWithinHours(result, zone, window)).toBe(true);
          // Nothing earlier was open: a minute before the opening was still closed (unless it is the instant).
          if (result.getTime() > t) expect(isWithinHours(new Date(result.getTime() - 60_000), zone, window)).toBe(false);
        }
      }
    }
    // About 24,000 instants: a second on a quiet machine, several on a loaded one; the default 5 s is no measure of it.
  }, 60_000);
});

describe('isValidTimeZone', () => {
  it('knows IANA names and refuses others', () => {
    expect(isValidTimeZone('America/New_York')).toBe(true);
    expect(isValidTimeZone('UTC')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus')).toBe(false);
  });
});

describe('localTimeOfDay', () => {
  it("reads the recipient's wall clock, across a change of the clocks", () => {
    expect(localTimeOfDay(new Date('2026-11-29T04:10:00Z'), 'America/New_York')).toBe('23:10');
    expect(localTimeOfDay(new Date('2026-11-29T04:10:00Z'), 'Asia/Kolkata')).toBe('09:40');
    expect(localTimeOfDay(new Date('2026-03-08T07:30:00Z'), 'America/New_York')).toBe('03:30');
    expect(localTimeOfDay(new Date('2026-03-08T06:59:00Z'), 'America/New_York')).toBe('01:59');
  });
});
