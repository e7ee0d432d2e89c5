import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { calendar_v3 } from '@googleapis/calendar';
import { GOOGLE_CALENDAR_EVENT_TOKENS, type GoogleCalendarProperties } from '@parley/shared';
import type { Tx } from '../../../platform/db/client.js';
import { accounts, calendarReminders, integrations, type IntegrationRow } from '../../../platform/db/schema/index.js';
import { AppError } from '../../../platform/errors.js';
import { sendMessagesIn } from '../../messaging/index.js';
import { findTemplate } from '../../templates/index.js';
import { sessionOf, type IntegrationDeps } from '../integrationStore.js';
import { listEvents } from './googleCalendarApi.js';
import { calendarTarget, googleCalendarConnector } from './googleCalendarConnector.js';
import { recipientsOf, type ReminderRecipient } from './reminderRecipients.js';
import { reminderPropertiesOf, reminderWindowEnd } from './reminderSettings.js';

/*
 * One run of a Google Calendar connection's reminders (docs/integrations.md, "Google Calendar"): the events of
 * the chosen calendar that start from now until `lookForward` hours later (or the next run, reminderSettings.ts) get the template, once per event and
 * attendee. The key (account, calendar, event, attendee) is claimed in the send's transaction, so another run,
 * a retried job or the event moved to another time never texts the attendee again. Cancelled events and
 * all-day events (no time to remind of) are left out.
 */

export const REMINDER_TEMPLATE_GONE = 'The reminder template no longer exists';

// Parley reads the template as the account's administrator would: a private one is still the account's.
const SYSTEM_VIEWER = { role: 'Administrator' as const, userId: '00000000-0000-0000-0000-000000000000' };

export interface ReminderRunResult {
  sent: number;
  refused: number;
  /** Event and attendee pairs reminded before (or by another run at the same time). */
  already: number;
}

/** The event's start as the attendee reads it: "Mon, Nov 2, 9:00 AM EST" in the connection's zone. */
export const eventStartText = (start: Date, timezone: string): string =>
  new Intl.DateTimeFormat('en-US', { timeZone: timezone, weekday: 'short', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' }).format(start);

/** The event's tokens filled in before the contact's are (braces dropped from the title: it cannot add tokens). */
export function withEventTokens(template: string, event: { title: string; start: Date }, timezone: string): string {
  return template
    .split(GOOGLE_CALENDAR_EVENT_TOKENS.title)
    .join(event.title.replace(/[{}]/g, ''))
    .split(GOOGLE_CALENDAR_EVENT_TOKENS.start)
    .join(eventStartText(event.start, timezone));
}

interface TimedEvent {
  id: string;
  title: string;
  start: Date;
  source: calendar_v3.Schema$Event;
}

/** The events to remind of: not cancelled, with a start time within [from, to). */
function timedEvents(events: readonly calendar_v3.Schema$Event[], from: Date, to: Date): TimedEvent[] {
  const timed: TimedEvent[] = [];
  for (const event of events) {
    const at = event.start?.dateTime;
    if (event.status === 'cancelled' || typeof event.id !== 'string' || typeof at !== 'string') continue;
    const start = new Date(at);
    if (Number.isNaN(start.getTime()) || start < from || start >= to) continue;
    timed.push({ id: event.id, title: event.summary ?? '', start, source: event });
  }
  return timed;
}

type Sent = { messageId: string; contactId: string | null } | { reason: string };

/** The template through messaging's sender (consent, quiet hours, balance as for every send), in a savepoint. */
async function send(tx: Tx, accountId: string, props: GoogleCalendarProperties, event: TimedEvent, to: ReminderRecipient, now: Date): Promise<Sent> {
  const found = await findTemplate(tx, accountId, SYSTEM_VIEWER, props.templateId);
  if (found === null) return { reason: REMINDER_TEMPLATE_GONE };
  try {
    const result = await tx.transaction((inner) =>
      sendMessagesIn(inner, {
        accountId,
        actor: { kind: 'system' },
        ...(to.contactId === null ? { contactsByMobile: [{ mobile: { number: to.mobile, country: '' }, firstName: '', lastName: '' }] } : { contactIds: [to.contactId] }),
        template: withEventTokens(found.template.template, event, props.timezone),
        media: found.template.media,
        templateId: found.template.id,
        chargeDescription: `Appointment reminder to ${to.mobile}`,
        whenNoneSendable: 'return',
        now,
      }),
    );
    const message = result.messages[0];
    if (message !== undefined) return { messageId: message.id, contactId: message.contactId };
    return { reason: result.unsendable[0]?.error.message ?? 'The attendee cannot be texted' };
  } catch (error) {
    if (error instanceof AppError) return { reason: error.message };
    throw error;
  }
}

/** Claims the event and attendee, then sends; 'already' when it was claimed before. */
async function remindOnce(deps: IntegrationDeps, row: IntegrationRow, props: GoogleCalendarProperties, event: TimedEvent, to: ReminderRecipient, now: Date): Promise<'sent' | 'refused' | 'already'> {
  return deps.db.transaction(async (tx) => {
    const id = uuidv7();
    const claimed = await tx
      .insert(calendarReminders)
      .values({ id, accountId: row.accountId, calendarId: props.calendarId, eventId: event.id, attendee: to.attendee, attendeeEmail: to.attendeeEmail, contactId: to.contactId, eventTitle: event.title, eventStart: event.start, status: 'refused', createdAt: now })
      .onConflictDoNothing()
      .returning({ id: calendarReminders.id });
    if (claimed.length === 0) return 'already';
    const sent = await send(tx, row.accountId, props, event, to, now);
    if ('messageId' in sent) {
      await tx.update(calendarReminders).set({ status: 'sent', messageId: sent.messageId, contactId: sent.contactId ?? to.contactId }).where(eq(calendarReminders.id, id));
      return 'sent';
    }
    await tx.update(calendarReminders).set({ reason: sent.reason }).where(eq(calendarReminders.id, id));
    return 'refused';
  });
}

/**
 * Runs the reminders of one connection at `now`. Provider failures throw as ProviderErrors (the job decides);
 * a connection without a calendar or a template does nothing.
 */
export async function runCalendarReminders(deps: IntegrationDeps, integrationId: string, now: Date = new Date()): Promise<ReminderRunResult> {
  const result: ReminderRunResult = { sent: 0, refused: 0, already: 0 };
  const [row] = await deps.db.select().from(integrations).where(eq(integrations.id, integrationId)).limit(1);
  if (row?.kind !== googleCalendarConnector.kind || row.status !== 'connected') return result;
  const props = reminderPropertiesOf(row);
  if (props.calendarId === '' || props.templateId === '') return result;
  const [account] = await deps.db.select({ defaultCountry: accounts.defaultCountry }).from(accounts).where(eq(accounts.id, row.accountId)).limit(1);
  const session = await sessionOf(deps, googleCalendarConnector, row);
  const until = reminderWindowEnd(props, now);
  const events = timedEvents(await listEvents(calendarTarget(session), props.calendarId, { timeMin: now, timeMax: until }), now, until);
  for (const event of events) {
    for (const to of await recipientsOf(deps.db, row.accountId, event.source, account?.defaultCountry ?? 'US')) {
      result[await remindOnce(deps, row, props, event, to, now)] += 1;
    }
  }
  return result;
}
