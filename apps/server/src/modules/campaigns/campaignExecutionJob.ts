import { z } from 'zod';
import { campaignSending, runCampaignExecution, stopExecution } from './campaignSender.js';
import type { Database } from '../../platform/db/client.js';
import { defineJob, type JobQueue } from '../../platform/jobs/queue.js';

export const CAMPAIGN_EXECUTION_JOB = 'campaigns.execute';
export const CAMPAIGN_EXECUTION_RETRIES = 10;
export const CAMPAIGN_EXECUTION_ABANDONED_MESSAGE =
  'The execution stopped unexpectedly. The messages queued so far were sent; the rest were not.';

/**
 * Sends one campaign execution in small batches (modules/campaigns/campaignSender.ts). Resumable: a retry, or a
 * second runner, starts at the first pending recipient. When the last attempt fails too, what is left is
 * marked not sent and the execution failed, so it never stays running.
 */
export function campaignExecutionJob(database: Database) {
  return defineJob({
    name: CAMPAIGN_EXECUTION_JOB,
    data: z.object({ campaignJobId: z.uuid() }),
    retryLimit: CAMPAIGN_EXECUTION_RETRIES,
    retryDelaySeconds: 5,
    // A worker that dies mid-run frees the job after this long; the scheduler's sweep usually queues it sooner.
    expireInSeconds: 30 * 60,
    async handler({ campaignJobId }, ctx) {
      try {
        const outcome = await runCampaignExecution(database.db, campaignJobId, { signal: ctx.signal, ...campaignSending(database) });
        ctx.log.info({ campaignJobId, outcome }, 'campaign execution sent');
      } catch (error) {
        if (ctx.retryCount >= CAMPAIGN_EXECUTION_RETRIES) await stopExecution(database.db, campaignJobId, CAMPAIGN_EXECUTION_ABANDONED_MESSAGE);
        throw error;
      }
    },
  });
}

/** Queues the sending of an execution, keyed by it (the sweep looks a live job up by the key). */
export async function enqueueCampaignExecution(jobs: JobQueue, database: Database, campaignJobId: string): Promise<void> {
  await jobs.send(campaignExecutionJob(database), { campaignJobId }, { singletonKey: campaignJobId });
}
