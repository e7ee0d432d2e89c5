import { v7 as uuidv7 } from 'uuid';
import type { JobDefinition, JobQueue } from '../../platform/jobs/queue.js';
import type { MessagesReportData, messagesReportData } from './messagesReportJob.js';

/**
 * Queues a detailed report of the account for `email`; answers the report's id. The job does the work, so
 * the request returns at once and nothing is lost if a process dies: pg-boss keeps the job until it is done.
 */
export async function requestMessagesReport(
  jobs: JobQueue,
  job: JobDefinition<typeof messagesReportData>,
  input: Omit<MessagesReportData, 'reportId'>,
): Promise<string> {
  const reportId = uuidv7();
  await jobs.send(job, { reportId, accountId: input.accountId, email: input.email });
  return reportId;
}
