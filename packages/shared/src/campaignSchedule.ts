import { Cron } from 'croner';
import { z } from 'zod';
import { isValidTimeZone, TIME_OF_DAY_PATTERN } from './quietHours.js';
import { validationMessages } from './validation.js';

/*
 * The schedule of a scheduled campaign (docs/campaigns.md, Scheduled campaigns). `frequency`:
 *   O  once, on `date` at `time`;
 *   D  every day at `time`;
 *   M  every month on `dayOfMonth` (1 to 28, so every month has it) at `time`;
 *   W  on the days of the week in `days` (0 Sunday to 6 Saturday) at `time`;
 *   C  by `cron`: five fields (minute hour day-of-month month day-of-week), optionally followed by a sixth,
 *      the year. `time` is still sent (the form keeps it) but the cron alone decides when.
 * Every time is wall-clock time in `timezone` (an IANA zone). Every frequency becomes a croner pattern, so
 * croner alone decides the next execution, daylight saving included:
 *   - a time the clocks skip (02:30 on a spring-forward night in New York, 01:30 in London) runs at the
 *     first instant after the gap, the same day (03:00 EDT, 02:00 BST);
 *   - a time that happens twice (01:30 on a fall-back night in New York or London) runs once, at the first
 *     of the two (01:30 summer time).
 *   The cron of C follows croner's rules for the pattern it is: a single minute and hour run as above; a
 *   list, range, step or wildcard in them runs on both passes through a repeated hour and skips the gap.
 *   Day of month and day of week both restricted means either (standard cron).
 */

const CAMPAIGN_SCHEDULE_MESSAGES = {
  frequency: 'Choose once, daily, monthly, days of the week or cron.',
  date: 'Use a date as YYYY-MM-DD.',
  dateBeforeToday: 'The date cannot be before today.',
  time: 'Use a time of day as HH:MM (00:00 to 23:59).',
  days: 'Days of the week are numbers from 0 (Sunday) to 6 (Saturday).',
  dayOfMonth: 'The day of the month must be between 1 and 28.',
  timezone: 'Choose a valid time zone (such as Europe/London).',
  cronFields:
    'The cron must have 5 fields (minute hour day-of-month month day-of-week), optionally followed by a year.',
  cronNeverRuns: 'The cron never runs again.',
} as const;

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether 'YYYY-MM-DD' names a day of the calendar (no 2026-02-30). */
function isCalendarDate(date: string): boolean {
  const match = DATE_PATTERN.exec(date);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const probe = new Date(Date.UTC(year, month - 1, day));
  return year >= 1 && probe.getUTCFullYear() === year && probe.getUTCMonth() === month - 1 && probe.getUTCDate() === day;
}

/** Today's date ('YYYY-MM-DD') in `zone` at `now`. */
function todayIn(zone: string, now: Date): string {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(now);
  const part = (type: string): string => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

const CRON_FIELD_NAMES = ['minute', 'hour', 'day-of-month', 'month', 'day-of-week', 'year'] as const;
/** croner's names of the fields in its messages, mapped to ours. */
const CRONER_FIELD_NAMES: Record<string, (typeof CRON_FIELD_NAMES)[number]> = {
  minute: 'minute',
  hour: 'hour',
  day: 'day-of-month',
  month: 'month',
  dayOfWeek: 'day-of-week',
  year: 'year',
};

/** The fields of a cron as written ('0 9 * * 1-5' or '0 9 * * 1-5 2027'), or null when there are not 5 or 6. */
function cronFields(cron: string): string[] | null {
  const fields = cron.trim().split(/\s+/);
  return fields.length === 5 || fields.length === 6 ? fields : null;
}

/**
 * The croner pattern (7 parts: second minute hour day month weekday year) of a schedule. Throws when a field
 * the frequency needs is missing (a schedule that did not pass the schema).
 */
function cronerPattern(schedule: CampaignSchedule): string {
  const [hour, minute] = schedule.time.split(':').map(Number);
  const at = `0 ${String(minute)} ${String(hour)}`;
  switch (schedule.frequency) {
    case 'O': {
      if (schedule.date === undefined) throw new RangeError('a once-only schedule needs a date');
      const [year, month, day] = schedule.date.split('-').map(Number);
      return `${at} ${String(day)} ${String(month)} * ${String(year)}`;
    }
    case 'D':
      return `${at} * * * *`;
    case 'M':
      if (schedule.dayOfMonth === undefined) throw new RangeError('a monthly schedule needs a day of the month');
      return `${at} ${String(schedule.dayOfMonth)} * * *`;
    case 'W':
      if (schedule.days === undefined || schedule.days.length === 0) throw new RangeError('a weekly schedule needs days');
      return `${at} * * ${[...new Set(schedule.days)].sort((a, b) => a - b).join(',')} *`;
    case 'C': {
      const fields = schedule.cron === undefined ? null : cronFields(schedule.cron);
      if (fields === null) throw new RangeError(CAMPAIGN_SCHEDULE_MESSAGES.cronFields);
      return `0 ${fields.join(' ')}${fields.length === 5 ? ' *' : ''}`;
    }
  }
}

function cronerOf(pattern: string, timezone: string): Cron {
  // No function: croner only evaluates the pattern, it starts no timer.
  return new Cron(pattern, { timezone, mode: '7-part' });
}

/** Why croner refuses a cron, in words that name the field as the user wrote it; null when it accepts it. */
function cronProblem(cron: string, timezone: string, now: Date): string | null {
  const fields = cronFields(cron);
  if (fields === null) return CAMPAIGN_SCHEDULE_MESSAGES.cronFields;
  let croner: Cron;
  try {
    croner = cronerOf(`0 ${fields.join(' ')}${fields.length === 5 ? ' *' : ''}`, timezone);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // croner says "Invalid value for <field>: ..." or "configuration entry <n> (...) contains illegal characters".
    const named = /for (\w+):/.exec(message)?.[1];
    const entry = /entry (\d+)/.exec(message)?.[1];
    const field = named === undefined ? undefined : CRONER_FIELD_NAMES[named];
    // Our fields follow croner's leading seconds field: croner's entry n is our field n - 1.
    const index = field !== undefined ? CRON_FIELD_NAMES.indexOf(field) : entry !== undefined ? Number(entry) - 1 : -1;
    const name = CRON_FIELD_NAMES[index];
    const written = fields[index];
    if (name === undefined || written === undefined) return `The cron is not valid: ${message}`;
    return `The cron's ${name} field "${written}" is not valid.`;
  }
  return croner.nextRun(now) === null ? CAMPAIGN_SCHEDULE_MESSAGES.cronNeverRuns : null;
}

/**
 * Why a five-field cron (minute hour day-of-month month day-of-week, no year) cannot run in `timezone`, in
 * the words of a campaign's cron; null when croner accepts it and it runs again. Other schedules that take a
 * plain cron (the Google Calendar reminders, docs/integrations.md) check theirs here.
 */
export function fiveFieldCronProblem(cron: string, timezone: string, now: Date = new Date()): string | null {
  if (cron.trim().split(/\s+/).length !== 5) return FIVE_FIELD_CRON_MESSAGE;
  return cronProblem(cron, timezone, now);
}

export const FIVE_FIELD_CRON_MESSAGE = 'The schedule must have 5 fields: minute hour day-of-month month day-of-week (such as 0 8 * * 1-5).';

/** The first run of a five-field cron in `timezone` strictly after `after` (null: never again). */
export function nextCronRun(cron: string, timezone: string, after: Date): Date | null {
  return cronerOf(`0 ${cron.trim()} *`, timezone).nextRun(after);
}

/**
 * The instant of a wall-clock 'YYYY-MM-DDTHH:MM' in `timezone`, by croner's rules (a time the clocks skip is
 * the first instant after the gap; one that happens twice, the first of the two); null when malformed.
 */
export function wallClockInstant(localDateTime: string, timezone: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(localDateTime);
  if (match === null) return null;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number];
  const pattern = `0 ${String(minute)} ${String(hour)} ${String(day)} ${String(month)} * ${String(year)}`;
  // Two days before in UTC is before that wall-clock time in every zone.
  return cronerOf(pattern, timezone).nextRun(new Date(Date.UTC(year, month - 1, day) - 2 * 86_400_000));
}

const frequencies = ['O', 'D', 'M', 'W', 'C'] as const;

const weekday = z
  .number({ message: CAMPAIGN_SCHEDULE_MESSAGES.days })
  .int({ message: CAMPAIGN_SCHEDULE_MESSAGES.days })
  .min(0, { message: CAMPAIGN_SCHEDULE_MESSAGES.days })
  .max(6, { message: CAMPAIGN_SCHEDULE_MESSAGES.days });

/**
 * A campaign's schedule (see the top of this file). The fields a frequency needs are required ('Required'
 * on the field); the others are ignored. A once-only date may not be before today in the schedule's zone,
 * judged when the schedule is parsed.
 */
export const campaignScheduleSchema = z
  .object({
    frequency: z.enum(frequencies, { message: CAMPAIGN_SCHEDULE_MESSAGES.frequency }),
    date: z.string().refine(isCalendarDate, { message: CAMPAIGN_SCHEDULE_MESSAGES.date }).optional(),
    time: z.string({ message: validationMessages.required }).regex(TIME_OF_DAY_PATTERN, { message: CAMPAIGN_SCHEDULE_MESSAGES.time }),
    days: z.array(weekday, { message: CAMPAIGN_SCHEDULE_MESSAGES.days }).optional(),
    dayOfMonth: z
      .number({ message: CAMPAIGN_SCHEDULE_MESSAGES.dayOfMonth })
      .int({ message: CAMPAIGN_SCHEDULE_MESSAGES.dayOfMonth })
      .min(1, { message: CAMPAIGN_SCHEDULE_MESSAGES.dayOfMonth })
      .max(28, { message: CAMPAIGN_SCHEDULE_MESSAGES.dayOfMonth })
      .optional(),
    timezone: z.string({ message: validationMessages.required }).refine(isValidTimeZone, { message: CAMPAIGN_SCHEDULE_MESSAGES.timezone }),
    cron: z.string().trim().optional(),
  })
  .superRefine((schedule, context) => {
    const fail = (path: 'date' | 'days' | 'dayOfMonth' | 'cron', message: string = validationMessages.required): void => {
      context.addIssue({ code: 'custom', path: [path], message });
    };
    const now = new Date();
    // zod runs this check even when a field failed its own: judge only what is well formed.
    const zoneOk = isValidTimeZone(schedule.timezone);
    switch (schedule.frequency) {
      case 'O':
        if (schedule.date === undefined) fail('date');
        else if (zoneOk && isCalendarDate(schedule.date) && schedule.date < todayIn(schedule.timezone, now)) {
          fail('date', CAMPAIGN_SCHEDULE_MESSAGES.dateBeforeToday);
        }
        return;
      case 'D':
        return;
      case 'M':
        if (schedule.dayOfMonth === undefined) fail('dayOfMonth');
        return;
      case 'W':
        if (schedule.days === undefined || schedule.days.length === 0) fail('days', validationMessages.selectOneOrMore);
        return;
      case 'C': {
        if (schedule.cron === undefined || schedule.cron === '') {
          fail('cron');
          return;
        }
        const problem = zoneOk ? cronProblem(schedule.cron, schedule.timezone, now) : null;
        if (problem !== null) fail('cron', problem);
        return;
      }
    }
  })
  .meta({ id: 'CampaignSchedule' });

export type CampaignSchedule = z.infer<typeof campaignScheduleSchema>;

/**
 * The first execution of `schedule` strictly after `after`, or null when there is none (a once-only date or
 * a cron's year that has passed). Daylight saving: see the top of this file.
 */
export function nextExecution(schedule: CampaignSchedule, after: Date): Date | null {
  return cronerOf(cronerPattern(schedule), schedule.timezone).nextRun(after);
}

const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

function listInWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1] ?? ''}`;
}

/** The schedule in words for the UI: "Every day at 09:00 (Europe/London)". */
export function describeSchedule(schedule: CampaignSchedule): string {
  const zone = `(${schedule.timezone})`;
  switch (schedule.frequency) {
    case 'O':
      return `Once on ${schedule.date ?? '?'} at ${schedule.time} ${zone}`;
    case 'D':
      return `Every day at ${schedule.time} ${zone}`;
    case 'M':
      return `Every month on day ${String(schedule.dayOfMonth ?? '?')} at ${schedule.time} ${zone}`;
    case 'W': {
      const days = [...new Set(schedule.days ?? [])].sort((a, b) => a - b);
      const names = days.map((day) => WEEKDAY_NAMES[day] ?? String(day));
      if (days.length === 7) return `Every day at ${schedule.time} ${zone}`;
      if (days.join(',') === '1,2,3,4,5') return `Every weekday (Monday to Friday) at ${schedule.time} ${zone}`;
      return `Every ${listInWords(names)} at ${schedule.time} ${zone}`;
    }
    case 'C':
      return `On the cron "${schedule.cron?.trim() ?? ''}" ${zone}`;
  }
}
