import { and, asc, eq, isNotNull, lte, sql } from 'drizzle-orm';
import { nextExecution } from '@parley/shared';
import { queryRows, type Db } from '../../platform/db/client.js';
import { campaigns, type CampaignJobRow } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { createExecutionIn, recordFailedExecution, withShortLinks, type EnqueueExecution } from './campaignExecutor.js';
import { finishExecution } from './campaignSender.js';
import { storedSchedule } from './campaignStored.js';

/*
 * Scheduled campaigns. Each minute the scheduler claims the due campaigns one by one, each in its own
 * transaction: the row is taken FOR UPDATE SKIP LOCKED (another process running the same tick skips it),
 * its next execution is moved on from now with the shared nextExecution(), and the execution is created in
 * the same transaction, so a due run happens exactly once across processes. A run that cannot start (the
 * balance below the estimate, no number to send from) is recorded as a failed execution with its reason.
 * Missed times (the service was down) give one run, then the schedule continues from now.
 */

/** Due campaigns claimed per tick at most; the rest wait for the next tick. */
const CLAIMS_PER_TICK = 100;

export interface ScheduledRun {
  campaignId: string;
  campaignJobId: string;
  status: CampaignJobRow['status'];
  error?: string;
}

/** Claims and runs one due campaign; null when none is due (or every due one is held by another process). */
async function runOneDue(db: Db, now: Date): Promise<ScheduledRun | null> {
  return db.transaction(async (tx) => {
    const [due] = await tx
      .select()
      .from(campaigns)
      .where(
        and(
          eq(campaigns.active, true),
          eq(campaigns.trigger, 'S'),
          isNotNull(campaigns.nextExecutionAt),
          lte(campaigns.nextExecutionAt, now),
        ),
      )
      .orderBy(asc(campaigns.nextExecutionAt))
      .limit(1)
      .for('update', { skipLocked: true });
    if (!due) return null;
    const schedule = storedSchedule(due.schedule);
    const next = schedule === null ? null : nextExecution(schedule, now);
    await tx.update(campaigns).set({ nextExecutionAt: next }).where(eq(campaigns.id, due.id));
    try {
      // A savepoint: a refusal rolls back the half-made execution, not the claim.
      const job = await tx.transaction(async (savepoint) => createExecutionIn(savepoint, await withShortLinks(savepoint, due, now), { userId: null, now }));
      return { campaignId: due.id, campaignJobId: job.id, status: job.status };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const job = await recordFailedExecution(tx, due, error.message, now);
      return { campaignId: due.id, campaignJobId: job.id, status: 'failed' as const, error: error.message };
    }
  });
}

/** Runs every due scheduled campaign and queues the sending of each execution that started. */
export async function runDueCampaigns(
  db: Db,
  enqueue: EnqueueExecution,
  options: { now?: () => Date; onEnqueueError?: (error: unknown, run: ScheduledRun) => void } = {},
): Promise<ScheduledRun[]> {
  const runs: ScheduledRun[] = [];
  for (let i = 0; i < CLAIMS_PER_TICK; i += 1) {
    const run = await runOneDue(db, options.now?.() ?? new Date());
    if (run === null) break;
    runs.push(run);
    if (run.status !== 'running') continue;
    try {
      await enqueue(run.campaignJobId);
    } catch (error) {
      options.onEnqueueError?.(error, run);
    }
  }
  return runs;
}

/**
 * Executions left running without a runner (the process died between the commit and queueing the job, or
 * its job ran out of attempts without marking it): those older than `olderThanSeconds` that still have
 * pending recipients and no live job are queued again; those with nothing pending are marked done.
 */
export async function resumeStalledExecutions(
  db: Db,
  hasLiveJob: (campaignJobId: string) => Promise<boolean>,
  enqueue: EnqueueExecution,
  options: { olderThanSeconds?: number; now?: Date } = {},
): Promise<{ resumed: string[]; finished: string[] }> {
  const now = options.now ?? new Date();
  const stale = await queryRows<{ id: string; pending: boolean }>(
    db,
    sql`select j.id, exists (select 1 from campaign_job_recipients r
                              where r.job_id = j.id and r.message_id is null and r.error is null) as pending
          from campaign_jobs j
         where j.status = 'running' and j.created_at < ${now.toISOString()}::timestamptz - make_interval(secs => ${options.olderThanSeconds ?? 120})
         order by j.created_at limit 100`,
  );
  const resumed: string[] = [];
  const finished: string[] = [];
  for (const job of stale) {
    if (!job.pending) {
      if (await finishExecution(db, job.id, now)) finished.push(job.id);
      continue;
    }
    if (await hasLiveJob(job.id)) continue;
    await enqueue(job.id);
    resumed.push(job.id);
  }
  return { resumed, finished };
}
