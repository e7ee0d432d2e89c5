import type { calendar_v3 } from '@googleapis/calendar';
import { calendarCall, calendarClient, type CalendarTarget } from './googleCalendarClient.js';

/*
 * The Calendar API v3 calls Parley makes (docs/integrations.md, "Google Calendar"): the calendar list, the
 * events of a window (single events, by start time, paged by nextPageToken), one event, and an attendee's
 * response changed.
 */

export interface CalendarSummary {
  id: string;
  summary: string;
  primary: boolean;
  timeZone?: string;
}

const PAGE_SIZE = 250;
/** Pages read in one run at most: a calendar with more events in one window is cut there. */
const MAX_PAGES = 40;

export async function listCalendars(t: CalendarTarget): Promise<CalendarSummary[]> {
  const client = calendarClient(t);
  const found: CalendarSummary[] = [];
  let pageToken: string | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const data = await calendarCall(() => client.calendarList.list({ maxResults: PAGE_SIZE, ...(pageToken === undefined ? {} : { pageToken }) }));
    for (const item of data.items ?? []) {
      if (typeof item.id !== 'string') continue;
      found.push({ id: item.id, summary: item.summaryOverride ?? item.summary ?? item.id, primary: item.primary === true, ...(item.timeZone == null ? {} : { timeZone: item.timeZone }) });
    }
    pageToken = data.nextPageToken ?? undefined;
    if (pageToken === undefined) break;
  }
  return found;
}

/** Every event overlapping [timeMin, timeMax), recurring ones as single instances, cancelled ones included (showDeleted). */
export async function listEvents(t: CalendarTarget, calendarId: string, window: { timeMin: Date; timeMax: Date }): Promise<calendar_v3.Schema$Event[]> {
  const client = calendarClient(t);
  const events: calendar_v3.Schema$Event[] = [];
  let pageToken: string | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const data = await calendarCall(() =>
      client.events.list({
        calendarId,
        timeMin: window.timeMin.toISOString(),
        timeMax: window.timeMax.toISOString(),
        singleEvents: true,
        orderBy: 'startTime',
        showDeleted: true,
        maxResults: PAGE_SIZE,
        ...(pageToken === undefined ? {} : { pageToken }),
      }),
    );
    events.push(...(data.items ?? []));
    pageToken = data.nextPageToken ?? undefined;
    if (pageToken === undefined) break;
  }
  return events;
}

/**
 * Marks the attendee with this e-mail declined: the event is read, and its attendees written back with that
 * one's responseStatus changed (a patch replaces the whole attendees list). Answers false when the event no
 * longer lists the attendee.
 */
export async function declineAttendee(t: CalendarTarget, calendarId: string, eventId: string, email: string): Promise<boolean> {
  const client = calendarClient(t);
  const event = await calendarCall(() => client.events.get({ calendarId, eventId }));
  const attendees = event.attendees ?? [];
  if (!attendees.some((a) => a.email?.toLowerCase() === email)) return false;
  const changed = attendees.map((a) => (a.email?.toLowerCase() === email ? { ...a, responseStatus: 'declined' } : a));
  await calendarCall(() => client.events.patch({ calendarId, eventId, sendUpdates: 'all', requestBody: { attendees: changed } }));
  return true;
}
