import { and, asc, eq, isNotNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../../../platform/db/client.js';
import { calendarReminderSchedules, integrations } from '../../../platform/db/schema/index.js';
import { nextReminderRun, reminderPropertiesOf, schedulePattern } from './reminderSettings.js';

/*
 * When each Google Calendar connection's reminders run (docs/integrations.md, "Google Calendar"). Each minute
 * the scheduler first brings every connection's row in line with its properties (a changed cron, from, zone
 * or calendar computes the next run again from now, no earlier than `from`), then claims the due rows one by
 * one FOR UPDATE SKIP LOCKED, moving each to its next run in the same transaction, as scheduled campaigns
 * are claimed: a due run is claimed once across processes. Missed times (the service was down) give one run.
 */

const CLAIMS_PER_TICK = 100;

/** Brings the schedule rows in line with the connections' properties. */
export async function planReminderSchedules(db: Db, now: Date): Promise<void> {
  const rows = await db
    .select({ integration: integrations, pattern: calendarReminderSchedules.pattern })
    .from(integrations)
    .leftJoin(calendarReminderSchedules, eq(calendarReminderSchedules.integrationId, integrations.id))
    .where(and(eq(integrations.kind, 'googlecalendar'), eq(integrations.status, 'connected')));
  for (const { integration, pattern } of rows) {
    const props = reminderPropertiesOf(integration);
    const wanted = schedulePattern(props);
    if (wanted === pattern) continue;
    // The run due from now on; a cron with no run left (or nothing asked for) keeps a row without one.
    const nextRunAt = wanted === '' ? null : nextReminderRun(props, new Date(now.getTime() - 1000));
    await db
      .insert(calendarReminderSchedules)
      .values({ integrationId: integration.id, accountId: integration.accountId, pattern: wanted, nextRunAt, updatedAt: now })
      .onConflictDoUpdate({ target: calendarReminderSchedules.integrationId, set: { pattern: wanted, nextRunAt, updatedAt: now } });
  }
}

/** Claims one due connection and moves it on; its id, or null when none is due. */
async function claimOne(db: Db, now: Date): Promise<string | null> {
  return db.transaction(async (tx) => {
    const [due] = await tx
      .select({ schedule: calendarReminderSchedules, integration: integrations })
      .from(calendarReminderSchedules)
      .innerJoin(integrations, eq(integrations.id, calendarReminderSchedules.integrationId))
      .where(and(isNotNull(calendarReminderSchedules.nextRunAt), lte(calendarReminderSchedules.nextRunAt, now)))
      .orderBy(asc(calendarReminderSchedules.nextRunAt))
      .limit(1)
      .for('update', { of: calendarReminderSchedules, skipLocked: true });
    if (due === undefined) return null;
    const props = reminderPropertiesOf(due.integration);
    const next = schedulePattern(props) === '' ? null : nextReminderRun(props, now);
    await tx
      .update(calendarReminderSchedules)
      .set({ nextRunAt: next, lastRunAt: now, updatedAt: now })
      .where(eq(calendarReminderSchedules.integrationId, due.schedule.integrationId));
    return due.schedule.integrationId;
  });
}

/** The connections whose run is due now, each claimed once. */
export async function claimDueReminderRuns(db: Db, now: Date): Promise<string[]> {
  const claimed: string[] = [];
  for (let i = 0; i < CLAIMS_PER_TICK; i += 1) {
    const id = await claimOne(db, now);
    if (id === null) break;
    claimed.push(id);
  }
  return claimed;
}

/** A run's outcome on the schedule row (shown on the page). */
export async function recordRunOutcome(db: Db, integrationId: string, error: string | null): Promise<void> {
  await db.update(calendarReminderSchedules).set({ lastRunError: error, updatedAt: sql`now()` }).where(eq(calendarReminderSchedules.integrationId, integrationId));
}
