import { z } from 'zod';
import { fiveFieldCronProblem } from '../campaignSchedule.js';
import { isValidTimeZone } from '../quietHours.js';
import { validationMessages } from '../validation.js';

/**
 * Google Calendar (docs/integrations.md, "Google Calendar"): appointment reminders. On a schedule (a five-field
 * cron in the connection's time zone, from a start date and time) the events of the chosen calendar that start
 * within `lookForward` hours get the template texted to each attendee whose phone Parley knows, once per event
 * and attendee. Shared by the server and the integration's page.
 */

export const GOOGLE_CALENDAR_MAX_LOOK_FORWARD_HOURS = 720;
export const GOOGLE_CALENDAR_FROM_MESSAGE = 'Use a date and time as YYYY-MM-DDTHH:MM';
export const GOOGLE_CALENDAR_TIMEZONE_MESSAGE = 'Choose a valid time zone (such as Europe/London).';

/** The tokens a reminder's template may hold besides the contact's (docs/templates.md). */
export const GOOGLE_CALENDAR_EVENT_TOKENS = { title: '{{{eventTitle}}}', start: '{{{eventStart}}}' } as const;

/** A reply that declines the appointment: C or CANCEL, alone, in every case. */
export const isCalendarCancelReply = (text: string): boolean => /^\s*(c|cancel)\s*[.!]?\s*$/i.test(text);

const FROM_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):([0-5]\d)$/;

/** 'YYYY-MM-DDTHH:MM' naming a real day. */
function isLocalDateTime(value: string): boolean {
  const match = FROM_PATTERN.exec(value);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const probe = new Date(Date.UTC(year, month - 1, day));
  return probe.getUTCFullYear() === year && probe.getUTCMonth() === month - 1 && probe.getUTCDate() === day;
}

const cronSchema = z
  .string()
  .trim()
  .max(200)
  .superRefine((cron, context) => {
    if (cron === '') return;
    // The zone does not change whether a pattern is valid; the connection's zone decides when it runs.
    const problem = fiveFieldCronProblem(cron, 'UTC');
    if (problem !== null) context.addIssue({ code: 'custom', message: problem });
  });

export const googleCalendarPropertiesSchema = z
  .object({
    /** The calendar read (an id from the account's calendar list; '' none chosen yet: nothing runs). */
    calendarId: z.string().trim().max(1024),
    /** Five-field cron ('' off): when the reminders run, in `timezone`. */
    schedule: cronSchema,
    /** The first moment runs may happen, wall-clock in `timezone` ('' at once). */
    from: z.union([z.literal(''), z.string().refine(isLocalDateTime, { message: GOOGLE_CALENDAR_FROM_MESSAGE })]),
    /** Events starting within this many hours of a run are reminded. */
    lookForward: z
      .number({ message: validationMessages.number })
      .int({ message: validationMessages.number })
      .min(1, { message: 'Minimum value is 1' })
      .max(GOOGLE_CALENDAR_MAX_LOOK_FORWARD_HOURS, { message: `Maximum value is ${String(GOOGLE_CALENDAR_MAX_LOOK_FORWARD_HOURS)}` }),
    /** The saved SMS template sent ('' none: nothing is sent). */
    templateId: z.union([z.literal(''), z.uuid({ message: 'Choose a template' })]),
    /** The IANA zone of the schedule, of `from` and of the event's start time in the text. */
    timezone: z.string().refine(isValidTimeZone, { message: GOOGLE_CALENDAR_TIMEZONE_MESSAGE }),
    /** A reply of C or CANCEL declines the appointment in Google Calendar and is answered briefly. */
    cancelReplies: z.boolean(),
  })
  .strict()
  .meta({ id: 'GoogleCalendarProperties' });
export type GoogleCalendarProperties = z.output<typeof googleCalendarPropertiesSchema>;

export const GOOGLE_CALENDAR_DEFAULT_PROPERTIES: GoogleCalendarProperties = {
  calendarId: '',
  schedule: '',
  from: '',
  lookForward: 24,
  templateId: '',
  timezone: 'UTC',
  cancelReplies: false,
};

export const googleCalendarListSchema = z
  .object({
    data: z.array(z.object({ id: z.string(), summary: z.string(), primary: z.boolean(), timeZone: z.string().optional() })),
  })
  .meta({ id: 'GoogleCalendarList' });
export type GoogleCalendarList = z.infer<typeof googleCalendarListSchema>;
