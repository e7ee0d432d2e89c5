import { afterEach, describe, expect, it, vi } from 'vitest';
import { type CampaignSchedule, campaignScheduleSchema, describeSchedule, nextExecution } from './campaignSchedule.js';

const at = (iso: string): Date => new Date(iso);
const next = (schedule: CampaignSchedule, after: string): string | null => nextExecution(schedule, at(after))?.toISOString() ?? null;

/** The messages of a failed parse, by field. */
function problems(input: unknown): Record<string, string[]> {
  const result = campaignScheduleSchema.safeParse(input);
  if (result.success) return {};
  const byField: Record<string, string[]> = {};
  for (const issue of result.error.issues) (byField[issue.path.join('.')] ??= []).push(issue.message);
  return byField;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('campaignScheduleSchema', () => {
  it('accepts each frequency with the fields it needs', () => {
    vi.useFakeTimers({ now: at('2026-05-01T12:00:00Z') });
    const valid: CampaignSchedule[] = [
      { frequency: 'O', date: '2026-05-01', time: '09:00', timezone: 'Europe/London' },
      { frequency: 'D', time: '09:00', timezone: 'Europe/London' },
      { frequency: 'M', dayOfMonth: 28, time: '23:59', timezone: 'Asia/Kolkata' },
      { frequency: 'W', days: [0, 6], time: '00:00', timezone: 'America/New_York' },
      { frequency: 'C', cron: '0 9 * * 1-5', time: '09:00', timezone: 'UTC' },
      { frequency: 'C', cron: ' 30 8 1 * * 2027 ', time: '09:00', timezone: 'UTC' },
    ];
    for (const schedule of valid) expect(problems(schedule)).toEqual({});
    expect(campaignScheduleSchema.parse(valid[5]).cron).toBe('30 8 1 * * 2027');
  });

  it('requires the fields of each frequency', () => {
    expect(problems({ frequency: 'O', time: '09:00', timezone: 'UTC' })).toEqual({ date: ['Required'] });
    expect(problems({ frequency: 'M', time: '09:00', timezone: 'UTC' })).toEqual({ dayOfMonth: ['Required'] });
    expect(problems({ frequency: 'W', time: '09:00', timezone: 'UTC' })).toEqual({ days: ['Must select 1 or more'] });
    expect(problems({ frequency: 'W', days: [], time: '09:00', timezone: 'UTC' })).toEqual({ days: ['Must select 1 or more'] });
    expect(problems({ frequency: 'C', time: '09:00', timezone: 'UTC' })).toEqual({ cron: ['Required'] });
    expect(problems({ frequency: 'C', cron: '  ', time: '09:00', timezone: 'UTC' })).toEqual({ cron: ['Required'] });
    expect(problems({ frequency: 'D', timezone: 'UTC' })).toEqual({ time: ['Required'] });
    expect(problems({ frequency: 'D', time: '09:00' })).toEqual({ timezone: ['Required'] });
    expect(problems({ frequency: 'X', time: '09:00', timezone: 'UTC' })).toEqual({
      frequency: ['Choose once, daily, monthly, days of the week or cron.'],
    });
  });

  it('refuses a once-only date before today in the schedule’s zone, judged when parsed', () => {
    // 2026-05-01 23:30 UTC is already 2 May in Sydney and still 1 May in New York.
    vi.useFakeTimers({ now: at('2026-05-01T23:30:00Z') });
    const once = (date: string, timezone: string) => ({ frequency: 'O', date, time: '09:00', timezone });
    expect(problems(once('2026-05-01', 'Australia/Sydney'))).toEqual({ date: ['The date cannot be before today.'] });
    expect(problems(once('2026-05-02', 'Australia/Sydney'))).toEqual({});
    expect(problems(once('2026-05-01', 'America/New_York'))).toEqual({});
    expect(problems(once('2026-04-30', 'America/New_York'))).toEqual({ date: ['The date cannot be before today.'] });
    vi.setSystemTime(at('2026-05-03T00:00:00Z'));
    expect(problems(once('2026-05-02', 'Australia/Sydney'))).toEqual({ date: ['The date cannot be before today.'] });
  });

  it('refuses malformed dates, times, days, days of the month and zones with clear messages', () => {
    vi.useFakeTimers({ now: at('2026-01-01T00:00:00Z') });
    for (const date of ['2026-02-30', '2026-13-01', '26-05-01', '2026/05/01', '']) {
      expect(problems({ frequency: 'O', date, time: '09:00', timezone: 'UTC' })).toEqual({ date: ['Use a date as YYYY-MM-DD.'] });
    }
    for (const time of ['24:00', '9:00', '09:60', '0900', '09:00:00']) {
      expect(problems({ frequency: 'D', time, timezone: 'UTC' })).toEqual({ time: ['Use a time of day as HH:MM (00:00 to 23:59).'] });
    }
    for (const dayOfMonth of [0, 29, 31, 1.5, '5']) {
      expect(problems({ frequency: 'M', dayOfMonth, time: '09:00', timezone: 'UTC' })).toEqual({
        dayOfMonth: ['The day of the month must be between 1 and 28.'],
      });
    }
    expect(Object.keys(problems({ frequency: 'W', days: [1, 7], time: '09:00', timezone: 'UTC' }))).toEqual(['days.1']);
    expect(problems({ frequency: 'W', days: [-1], time: '09:00', timezone: 'UTC' })['days.0']).toEqual([
      'Days of the week are numbers from 0 (Sunday) to 6 (Saturday).',
    ]);
    for (const timezone of ['Nowhere/Town', 'GMT+25', '']) {
      expect(problems({ frequency: 'D', time: '09:00', timezone })).toEqual({ timezone: ['Choose a valid time zone (such as Europe/London).'] });
    }
  });

  it('names the problem of an invalid cron', () => {
    vi.useFakeTimers({ now: at('2026-05-01T12:00:00Z') });
    const cron = (value: string) => problems({ frequency: 'C', cron: value, time: '09:00', timezone: 'UTC' }).cron;
    const fields = 'The cron must have 5 fields (minute hour day-of-month month day-of-week), optionally followed by a year.';
    expect(cron('0 9 * *')).toEqual([fields]);
    expect(cron('0 0 9 * * 1-5 2027')).toEqual([fields]);
    expect(cron('@daily')).toEqual([fields]);
    expect(cron('61 9 * * *')).toEqual(['The cron\'s minute field "61" is not valid.']);
    expect(cron('0 24 * * *')).toEqual(['The cron\'s hour field "24" is not valid.']);
    expect(cron('0 9 32 * *')).toEqual(['The cron\'s day-of-month field "32" is not valid.']);
    expect(cron('0 9 * 13 *')).toEqual(['The cron\'s month field "13" is not valid.']);
    expect(cron('0 9 * * 1-9')).toEqual(['The cron\'s day-of-week field "1-9" is not valid.']);
    expect(cron('0 9 * * * 10000')).toEqual(['The cron\'s year field "10000" is not valid.']);
    expect(cron('0 9 * * * abc')).toEqual(['The cron\'s year field "abc" is not valid.']);
    // Valid fields that never meet again: a passed year, 30 February.
    expect(cron('0 9 * * * 2025')).toEqual(['The cron never runs again.']);
    expect(cron('0 9 30 2 *')).toEqual(['The cron never runs again.']);
  });
});

describe('nextExecution', () => {
  it('runs once on a future date at its local time, and never after it', () => {
    const once: CampaignSchedule = { frequency: 'O', date: '2026-07-04', time: '09:30', timezone: 'America/New_York' };
    expect(next(once, '2026-05-01T00:00:00Z')).toBe('2026-07-04T13:30:00.000Z'); // EDT, UTC-4
    expect(next(once, '2026-07-04T13:29:59Z')).toBe('2026-07-04T13:30:00.000Z');
    expect(next(once, '2026-07-04T13:30:00Z')).toBeNull();
    expect(next(once, '2027-01-01T00:00:00Z')).toBeNull();
  });

  it('is strictly after `after`: a run at that instant is already done', () => {
    const daily: CampaignSchedule = { frequency: 'D', time: '09:00', timezone: 'UTC' };
    expect(next(daily, '2026-05-01T09:00:00Z')).toBe('2026-05-02T09:00:00.000Z');
    expect(next(daily, '2026-05-01T08:59:59.999Z')).toBe('2026-05-01T09:00:00.000Z');
  });

  it('runs daily in zones east of UTC, whose local day starts the evening before in UTC', () => {
    // Kolkata is UTC+5:30 all year: 09:00 there is 03:30Z, and 02:00 there is 20:30Z the day before.
    expect(next({ frequency: 'D', time: '09:00', timezone: 'Asia/Kolkata' }, '2026-05-01T04:00:00Z')).toBe('2026-05-02T03:30:00.000Z');
    expect(next({ frequency: 'D', time: '02:00', timezone: 'Asia/Kolkata' }, '2026-05-01T12:00:00Z')).toBe('2026-05-01T20:30:00.000Z');
    // Sydney: AEST (UTC+10) in June, AEDT (UTC+11) in December.
    expect(next({ frequency: 'D', time: '08:00', timezone: 'Australia/Sydney' }, '2026-06-10T00:00:00Z')).toBe('2026-06-10T22:00:00.000Z');
    expect(next({ frequency: 'D', time: '08:00', timezone: 'Australia/Sydney' }, '2026-12-10T00:00:00Z')).toBe('2026-12-10T21:00:00.000Z');
  });

  it('runs a 02:30 daily schedule at 03:00 on a spring-forward day in New York, the same day', () => {
    // 2026-03-08: 02:00 EST jumps to 03:00 EDT; 02:30 never happens.
    const daily: CampaignSchedule = { frequency: 'D', time: '02:30', timezone: 'America/New_York' };
    expect(next(daily, '2026-03-07T08:00:00Z')).toBe('2026-03-08T07:00:00.000Z'); // 03:00 EDT
    expect(next(daily, '2026-03-08T07:00:00Z')).toBe('2026-03-09T06:30:00.000Z'); // back to 02:30 EDT
  });

  it('runs a 01:30 daily schedule once, at the first 01:30, on a fall-back day in New York', () => {
    // 2026-11-01: 02:00 EDT falls back to 01:00 EST; 01:30 happens at 05:30Z (EDT) and 06:30Z (EST).
    const daily: CampaignSchedule = { frequency: 'D', time: '01:30', timezone: 'America/New_York' };
    expect(next(daily, '2026-11-01T00:00:00Z')).toBe('2026-11-01T05:30:00.000Z');
    expect(next(daily, '2026-11-01T05:30:00Z')).toBe('2026-11-02T06:30:00.000Z'); // not 06:30Z the same day
  });

  it('follows London’s clock changes the same way', () => {
    // 2026-03-29: 01:00 GMT jumps to 02:00 BST, so 01:30 runs at 02:00 BST (01:00Z).
    const early: CampaignSchedule = { frequency: 'D', time: '01:30', timezone: 'Europe/London' };
    expect(next(early, '2026-03-28T12:00:00Z')).toBe('2026-03-29T01:00:00.000Z');
    expect(next(early, '2026-03-29T01:00:00Z')).toBe('2026-03-30T00:30:00.000Z');
    // 2026-10-25: 02:00 BST falls back to 01:00 GMT; 01:30 runs once, at 01:30 BST (00:30Z).
    expect(next(early, '2026-10-24T12:00:00Z')).toBe('2026-10-25T00:30:00.000Z');
    expect(next(early, '2026-10-25T00:30:00Z')).toBe('2026-10-26T01:30:00.000Z');
  });

  it('runs monthly on day 28, every month including February', () => {
    const monthly: CampaignSchedule = { frequency: 'M', dayOfMonth: 28, time: '10:00', timezone: 'Australia/Sydney' };
    expect(next(monthly, '2027-01-28T00:00:00Z')).toBe('2027-02-27T23:00:00.000Z'); // 28 Feb 10:00 AEDT
    expect(next(monthly, '2027-02-27T23:00:00Z')).toBe('2027-03-27T23:00:00.000Z'); // 28 Mar 10:00 AEDT
    expect(next(monthly, '2027-04-10T00:00:00Z')).toBe('2027-04-28T00:00:00.000Z'); // AEST from 4 April
  });

  it('runs on the chosen days of the week only', () => {
    // 2026-05-01 is a Friday.
    const days: CampaignSchedule = { frequency: 'W', days: [3, 1], time: '09:00', timezone: 'Europe/London' };
    expect(next(days, '2026-05-01T00:00:00Z')).toBe('2026-05-04T08:00:00.000Z'); // Monday, BST
    expect(next(days, '2026-05-04T08:00:00Z')).toBe('2026-05-06T08:00:00.000Z'); // Wednesday
    expect(next(days, '2026-05-06T08:00:00Z')).toBe('2026-05-11T08:00:00.000Z'); // next Monday
    const weekend: CampaignSchedule = { frequency: 'W', days: [0, 6], time: '23:30', timezone: 'Asia/Kolkata' };
    expect(next(weekend, '2026-05-01T00:00:00Z')).toBe('2026-05-02T18:00:00.000Z'); // Saturday 23:30 IST
    expect(next(weekend, '2026-05-02T18:00:00Z')).toBe('2026-05-03T18:00:00.000Z'); // Sunday
  });

  it('runs a cron on weekdays at 09:00 in its zone', () => {
    const weekdays: CampaignSchedule = { frequency: 'C', cron: '0 9 * * 1-5', time: '00:00', timezone: 'America/New_York' };
    expect(next(weekdays, '2026-05-01T12:00:00Z')).toBe('2026-05-01T13:00:00.000Z'); // Friday 09:00 EDT
    expect(next(weekdays, '2026-05-01T13:00:00Z')).toBe('2026-05-04T13:00:00.000Z'); // skips the weekend
  });

  it('reads a sixth cron field as the year, and has nothing once that year has passed', () => {
    const newYear: CampaignSchedule = { frequency: 'C', cron: '0 0 1 1 * 2027', time: '00:00', timezone: 'Asia/Kolkata' };
    expect(next(newYear, '2026-05-01T00:00:00Z')).toBe('2026-12-31T18:30:00.000Z');
    expect(next(newYear, '2026-12-31T18:30:00Z')).toBeNull();
    const range: CampaignSchedule = { frequency: 'C', cron: '0 12 1 6 * 2026-2027', time: '00:00', timezone: 'UTC' };
    expect(next(range, '2026-07-01T00:00:00Z')).toBe('2027-06-01T12:00:00.000Z');
    expect(next(range, '2027-06-01T12:00:00Z')).toBeNull();
  });
});

describe('describeSchedule', () => {
  it('says each frequency in words with its zone', () => {
    expect(describeSchedule({ frequency: 'D', time: '09:00', timezone: 'Europe/London' })).toBe('Every day at 09:00 (Europe/London)');
    expect(describeSchedule({ frequency: 'O', date: '2026-07-04', time: '09:30', timezone: 'America/New_York' })).toBe(
      'Once on 2026-07-04 at 09:30 (America/New_York)',
    );
    expect(describeSchedule({ frequency: 'M', dayOfMonth: 28, time: '10:00', timezone: 'UTC' })).toBe('Every month on day 28 at 10:00 (UTC)');
    expect(describeSchedule({ frequency: 'W', days: [5, 1, 3], time: '08:15', timezone: 'UTC' })).toBe(
      'Every Monday, Wednesday and Friday at 08:15 (UTC)',
    );
    expect(describeSchedule({ frequency: 'W', days: [0], time: '08:15', timezone: 'UTC' })).toBe('Every Sunday at 08:15 (UTC)');
    expect(describeSchedule({ frequency: 'W', days: [1, 2, 3, 4, 5], time: '08:15', timezone: 'UTC' })).toBe(
      'Every weekday (Monday to Friday) at 08:15 (UTC)',
    );
    expect(describeSchedule({ frequency: 'W', days: [0, 1, 2, 3, 4, 5, 6], time: '08:15', timezone: 'UTC' })).toBe('Every day at 08:15 (UTC)');
    expect(describeSchedule({ frequency: 'C', cron: '0 9 * * 1-5', time: '00:00', timezone: 'Asia/Kolkata' })).toBe(
      'On the cron "0 9 * * 1-5" (Asia/Kolkata)',
    );
  });
});
