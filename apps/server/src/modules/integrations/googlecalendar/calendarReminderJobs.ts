import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { integrations } from '../../../platform/db/schema/index.js';
import { defineJob, type JobDefinition } from '../../../platform/jobs/queue.js';
import { credentialsRefused } from '../credentialFailure.js';
import { ProviderError } from '../providerError.js';
import type { SyncJobDeps } from '../syncJob.js';
import { runCalendarReminders } from './calendarReminderRun.js';
import { claimDueReminderRuns, planReminderSchedules, recordRunOutcome } from './calendarReminderSchedule.js';

export const CALENDAR_REMINDER_RUN_JOB = 'integrations.calendarReminders';

const runData = z.object({ integrationId: z.uuid() });

/**
 * integrations.calendarReminders: one connection's run (calendarReminderRun.ts). Google refusing the tokens
 * puts the integration in error and tells the administrators; a 429 waits for the next scheduled run (the
 * reminders not sent are still due then, when the event is still ahead); another failure is kept on the
 * schedule row and retried by the queue.
 */
export function calendarReminderRunJob(deps: SyncJobDeps): JobDefinition<typeof runData> {
  return defineJob({
    name: CALENDAR_REMINDER_RUN_JOB,
    data: runData,
    retryLimit: 2,
    expireInSeconds: 15 * 60,
    async handler({ integrationId }, ctx) {
      try {
        const result = await runCalendarReminders(deps, integrationId);
        await recordRunOutcome(deps.db, integrationId, null);
        if (result.sent + result.refused > 0) ctx.log.info({ integrationId, ...result }, 'calendar reminders');
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
        await recordRunOutcome(deps.db, integrationId, error.message);
        if (error.kind === 'unauthorized') {
          const [row] = await deps.db.select({ accountId: integrations.accountId }).from(integrations).where(eq(integrations.id, integrationId)).limit(1);
          if (row !== undefined) await credentialsRefused(deps.db, deps.mailer, { accountId: row.accountId, kind: 'googlecalendar', reason: error.message });
          return;
        }
        if (error.kind === 'rateLimited') return;
        throw error;
      }
    },
  });
}

/** Each minute, from the scheduler role: the due connections' runs, each queued once. */
export function calendarReminderSchedulerJob(deps: SyncJobDeps, runJob: JobDefinition<typeof runData>): JobDefinition<z.ZodObject> {
  return defineJob({
    name: 'integrations.calendarReminderSchedule',
    data: z.object({}).loose(),
    schedule: { cron: '* * * * *' },
    // A tick that fails is simply the next minute's work.
    retryLimit: 0,
    expireInSeconds: 5 * 60,
    async handler(_data, ctx) {
      const now = new Date();
      await planReminderSchedules(deps.db, now);
      for (const integrationId of await claimDueReminderRuns(deps.db, now)) {
        try {
          await deps.jobs.send(runJob, { integrationId });
        } catch (error) {
          ctx.log.error({ err: error, integrationId }, 'could not queue a calendar reminder run');
        }
      }
    },
  });
}
