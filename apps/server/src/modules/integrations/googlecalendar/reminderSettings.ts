import { GOOGLE_CALENDAR_DEFAULT_PROPERTIES, googleCalendarPropertiesSchema, nextCronRun, wallClockInstant, type GoogleCalendarProperties } from '@parley/shared';
import type { IntegrationRow } from '../../../platform/db/schema/index.js';

/** A connection's reminder settings: its properties over the defaults (the defaults when they no longer parse). */
export const reminderPropertiesOf = (row: Pick<IntegrationRow, 'properties'>): GoogleCalendarProperties => {
  const parsed = googleCalendarPropertiesSchema.safeParse({ ...GOOGLE_CALENDAR_DEFAULT_PROPERTIES, ...row.properties });
  return parsed.success ? parsed.data : GOOGLE_CALENDAR_DEFAULT_PROPERTIES;
};

/** What the next run depends on; a change computes it again. '' when nothing should run. */
export function schedulePattern(props: GoogleCalendarProperties): string {
  if (props.schedule === '' || props.calendarId === '' || props.templateId === '') return '';
  return JSON.stringify([props.schedule, props.from, props.timezone, props.calendarId]);
}

/** The first run strictly after `after`, not before `from` (wall-clock in the connection's zone); null: none. */
export function nextReminderRun(props: GoogleCalendarProperties, after: Date): Date | null {
  if (props.schedule === '') return null;
  const from = props.from === '' ? null : wallClockInstant(props.from, props.timezone);
  const start = from !== null && from > after ? new Date(from.getTime() - 1000) : after;
  return nextCronRun(props.schedule, props.timezone, start);
}

/**
 * The events a run at `now` reminds of start in [now, end): end is lookForward hours on, or the next run when
 * that is later, so no event falls between two runs (a daily run across a fall-back night is 25 hours apart).
 */
export function reminderWindowEnd(props: GoogleCalendarProperties, now: Date): Date {
  const ahead = new Date(now.getTime() + props.lookForward * 3_600_000);
  const next = nextReminderRun(props, now);
  return next !== null && next > ahead ? next : ahead;
}
