import type { FastifyRequest } from 'fastify';
import { EXECUTION_NOT_FOUND, findExecution } from './campaignExecutions.js';
import { principalOf } from '../identity/index.js';
import type { AppContext } from '../../platform/context.js';
import { notFound } from '../../platform/errors.js';
import { enqueueCampaignExecution } from './campaignExecutionJob.js';
import { presentExecution } from './campaignExecutionPresenter.js';

/** What starting an execution (Execute, Resend Failed) needs from a request: who, and how to queue it. */
export function executionStarter(ctx: AppContext, request: FastifyRequest) {
  const principal = principalOf(request);
  return {
    /** An API client starts it as no user. */
    userId: principal.clientId === undefined ? principal.userId : null,
    enqueue: (campaignJobId: string) => enqueueCampaignExecution(ctx.jobs, ctx.database, campaignJobId),
    onEnqueueFailure: (error: unknown) => {
      request.log.error({ err: error }, 'could not queue a campaign execution; the scheduler resumes it');
    },
  };
}

/** The started execution as the executions list shows it (202's body). */
export async function presentStartedExecution(ctx: AppContext, accountId: string, jobId: string) {
  const record = await findExecution(ctx.database.db, accountId, jobId);
  if (!record) throw notFound(EXECUTION_NOT_FOUND);
  return { data: presentExecution(record) };
}
