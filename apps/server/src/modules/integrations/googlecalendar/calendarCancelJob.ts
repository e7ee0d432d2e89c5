import { and, asc, eq, isNotNull, isNull } from 'drizzle-orm';
import { z } from 'zod';
import type { Tx } from '../../../platform/db/client.js';
import { calendarReminders, integrations, type CalendarReminderRow } from '../../../platform/db/schema/index.js';
import { AppError } from '../../../platform/errors.js';
import { defineJob, type JobDefinition } from '../../../platform/jobs/queue.js';
import { sendMessagesIn } from '../../messaging/index.js';
import { sessionOf } from '../integrationStore.js';
import { ProviderError } from '../providerError.js';
import type { SyncJobDeps } from '../syncJob.js';
import { declineAttendee } from './googleCalendarApi.js';
import { calendarTarget, googleCalendarConnector } from './googleCalendarConnector.js';
import { eventStartText } from './calendarReminderRun.js';
import { reminderPropertiesOf } from './reminderSettings.js';

export const CALENDAR_CANCEL_JOB = 'integrations.calendarCancels';
const BATCH = 50;

/** The brief answer to a C or CANCEL reply. */
export const cancelAnswer = (title: string, start: string): string => `Your appointment "${title}" on ${start} is cancelled. Thank you for letting us know.`;
export const ATTENDEE_GONE = 'The event no longer lists the attendee';

const pendingCancel = (id: string) => and(eq(calendarReminders.id, id), isNull(calendarReminders.cancelledAt), isNull(calendarReminders.cancelError));

/**
 * Declines one reminder's attendee and answers, holding its row (left alone when another run holds it or it
 * is done). The session is opened first: a token refresh writes outside the row's transaction.
 */
async function cancelOne(deps: SyncJobDeps, id: string): Promise<void> {
  const [reminder] = await deps.db.select().from(calendarReminders).where(pendingCancel(id)).limit(1);
  if (reminder === undefined) return;
  const [row] = await deps.db
    .select()
    .from(integrations)
    .where(and(eq(integrations.accountId, reminder.accountId), eq(integrations.kind, 'googlecalendar'), eq(integrations.status, 'connected')))
    .limit(1);
  if (row === undefined) {
    await deps.db.update(calendarReminders).set({ cancelError: 'Google Calendar is no longer connected' }).where(eq(calendarReminders.id, id));
    return;
  }
  const target = calendarTarget(await sessionOf(deps, googleCalendarConnector, row));
  await deps.db.transaction(async (tx) => {
    const [held] = await tx.select({ id: calendarReminders.id }).from(calendarReminders).where(pendingCancel(id)).limit(1).for('update', { skipLocked: true });
    if (held === undefined) return;
    const declined = await declineAttendee(target, reminder.calendarId, reminder.eventId, reminder.attendeeEmail ?? '');
    if (!declined) {
      await tx.update(calendarReminders).set({ cancelError: ATTENDEE_GONE }).where(eq(calendarReminders.id, id));
      return;
    }
    await tx.update(calendarReminders).set({ cancelledAt: new Date() }).where(eq(calendarReminders.id, id));
    await answer(tx, reminder, reminderPropertiesOf(row).timezone);
  });
}

/** The answer through the normal send; a refusal (the contact opted out with CANCEL) leaves it unsent. */
async function answer(tx: Tx, reminder: CalendarReminderRow, timezone: string): Promise<void> {
  if (reminder.contactId === null) return;
  try {
    await tx.transaction((inner) =>
      sendMessagesIn(inner, {
        accountId: reminder.accountId,
        actor: { kind: 'system' },
        contactIds: [reminder.contactId ?? ''],
        template: cancelAnswer(reminder.eventTitle.replace(/[{}]/g, ''), eventStartText(reminder.eventStart, timezone)),
        chargeDescription: 'Appointment cancelled',
        whenNoneSendable: 'return',
      }),
    );
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
  }
}

/**
 * integrations.calendarCancels: the reminders a C or CANCEL reply marked (calendarCancelSubscriber.ts) are
 * declined in Google Calendar (the attendee's responseStatus) and the contact answered, each once. Google
 * refusing or failing leaves the row for the job's retry.
 */
export function calendarCancelJob(deps: SyncJobDeps): JobDefinition<z.ZodObject> {
  return defineJob({
    name: CALENDAR_CANCEL_JOB,
    data: z.object({}).loose(),
    retryLimit: 3,
    async handler() {
      const pending = await deps.db
        .select({ id: calendarReminders.id })
        .from(calendarReminders)
        .where(and(isNotNull(calendarReminders.cancelRequestedAt), isNull(calendarReminders.cancelledAt), isNull(calendarReminders.cancelError)))
        .orderBy(asc(calendarReminders.cancelRequestedAt))
        .limit(BATCH);
      for (const { id } of pending) {
        try {
          await cancelOne(deps, id);
        } catch (error) {
          if (error instanceof ProviderError && error.kind !== 'failed') throw error;
          if (error instanceof ProviderError) {
            await deps.db.update(calendarReminders).set({ cancelError: error.message }).where(eq(calendarReminders.id, id));
            continue;
          }
          throw error;
        }
      }
    },
  });
}
