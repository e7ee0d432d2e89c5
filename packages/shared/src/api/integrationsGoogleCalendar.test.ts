import { describe, expect, it } from 'vitest';
import { FIVE_FIELD_CRON_MESSAGE, nextCronRun, wallClockInstant } from '../campaignSchedule.js';
import { GOOGLE_CALENDAR_DEFAULT_PROPERTIES, GOOGLE_CALENDAR_FROM_MESSAGE, googleCalendarPropertiesSchema, isCalendarCancelReply } from './integrationsGoogleCalendar.js';

const messagesOf = (value: Record<string, unknown>): string[] => {
  const parsed = googleCalendarPropertiesSchema.safeParse({ ...GOOGLE_CALENDAR_DEFAULT_PROPERTIES, ...value });
  return parsed.success ? [] : parsed.error.issues.map((i) => i.message);
};

describe('Google Calendar properties', () => {
  it('takes a five-field cron croner accepts, names a bad field, refuses a sixth field', () => {
    expect(messagesOf({ schedule: '0 8 * * 1-5' })).toEqual([]);
    expect(messagesOf({ schedule: '' })).toEqual([]);
    expect(messagesOf({ schedule: '61 8 * * *' })).toEqual(['The cron\'s minute field "61" is not valid.']);
    expect(messagesOf({ schedule: '0 8 * * 1 2027' })).toEqual([FIVE_FIELD_CRON_MESSAGE]);
  });

  it('takes from as a wall-clock date and time, look forward in whole hours, an IANA zone', () => {
    expect(messagesOf({ from: '2027-03-14T02:30', lookForward: 48, timezone: 'America/New_York' })).toEqual([]);
    expect(messagesOf({ from: '2027-03-14 02:30' })).toEqual([GOOGLE_CALENDAR_FROM_MESSAGE]);
    expect(messagesOf({ lookForward: 0 })).toEqual(['Minimum value is 1']);
    expect(messagesOf({ lookForward: 1.5 })).toHaveLength(1);
    expect(messagesOf({ timezone: 'Eastern' })).toHaveLength(1);
  });

  it('reads C and CANCEL alone as a cancel reply, nothing longer', () => {
    expect(['C', ' c ', 'Cancel', 'CANCEL.', 'c!'].map(isCalendarCancelReply)).toEqual([true, true, true, true, true]);
    expect(['Cancel my order', 'CC', 'ok', 'c c'].map(isCalendarCancelReply)).toEqual([false, false, false, false]);
  });
});

describe('wall-clock times and a plain cron across daylight saving (America/New_York)', () => {
  it('puts a skipped time after the gap and a repeated one at its first pass', () => {
    expect(wallClockInstant('2027-03-14T02:30', 'America/New_York')?.toISOString()).toBe('2027-03-14T07:00:00.000Z');
    expect(wallClockInstant('2026-11-01T01:30', 'America/New_York')?.toISOString()).toBe('2026-11-01T05:30:00.000Z');
    expect(wallClockInstant('2026-11-01T09:00', 'America/New_York')?.toISOString()).toBe('2026-11-01T14:00:00.000Z');
  });

  it('runs a daily cron at 09:00 local on both sides of the change', () => {
    const first = nextCronRun('0 9 * * *', 'America/New_York', new Date('2027-03-13T00:00:00Z'));
    const second = first === null ? null : nextCronRun('0 9 * * *', 'America/New_York', first);
    expect([first?.toISOString(), second?.toISOString()]).toEqual(['2027-03-13T14:00:00.000Z', '2027-03-14T13:00:00.000Z']);
  });
});
