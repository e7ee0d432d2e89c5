import { z } from 'zod';
import { removeAbandonedPreparations } from './campaignPreparation.js';
import { resumeStalledExecutions, runDueCampaigns } from './campaignScheduling.js';
import type { Database } from '../../platform/db/client.js';
import { CAMPAIGN_EXECUTION_JOB, enqueueCampaignExecution } from './campaignExecutionJob.js';
import { defineJob, type JobQueue } from '../../platform/jobs/queue.js';

/** pg-boss states in which a job will still run (or is running). */
const LIVE_STATES: ReadonlySet<string> = new Set(['created', 'retry', 'active']);

/**
 * Every minute, from the scheduler role: runs the scheduled campaigns that are due (each exactly once across
 * processes, modules/campaigns/campaignScheduling.ts), queues again any execution left without a runner, and removes
 * the preparations a dead process left.
 */
export function campaignSchedulerJob(database: Database, jobs: JobQueue) {
  const enqueue = (campaignJobId: string): Promise<void> => enqueueCampaignExecution(jobs, database, campaignJobId);
  return defineJob({
    name: 'campaigns.schedule',
    data: z.object({}).loose(),
    schedule: { cron: '* * * * *' },
    // A tick that fails is simply the next minute's work.
    retryLimit: 0,
    expireInSeconds: 10 * 60,
    async handler(_data, ctx) {
      const runs = await runDueCampaigns(database.db, enqueue, {
        onEnqueueError: (error, run) => {
          ctx.log.error({ err: error, campaignJobId: run.campaignJobId }, 'could not queue a scheduled execution; the sweep retries');
        },
      });
      const swept = await resumeStalledExecutions(
        database.db,
        async (campaignJobId) => {
          const found = await jobs.pgBoss.findJobs(CAMPAIGN_EXECUTION_JOB, { key: campaignJobId });
          return found.some((job) => LIVE_STATES.has(job.state));
        },
        enqueue,
      );
      const abandoned = await removeAbandonedPreparations(database.db);
      if (runs.length > 0 || swept.resumed.length > 0 || swept.finished.length > 0 || abandoned.length > 0) {
        ctx.log.info({ runs, resumed: swept.resumed, finished: swept.finished, abandoned }, 'scheduled campaigns');
      }
    },
  });
}
