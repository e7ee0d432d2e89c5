import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { campaignExecutionRecordSchema, campaignJobReportRecordSchema, errorBodySchema, jobReportNames } from '@parley/shared';
import { campaignJobReport } from '../campaignJobReport.js';
import { EXECUTION_NOT_FOUND } from '../campaignExecutions.js';
import { resendFailedMessages } from '../campaignResend.js';
import { membershipOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import { notFound } from '../../../platform/errors.js';
import { presentCampaignJobReport } from '../campaignJobReportPresenter.js';
import { executionStarter, presentStartedExecution } from '../executionStart.js';

// Any strings: an unknown report name or a malformed id is simply not found.
const reportParams = z.object({ acc: z.uuid(), name: z.string(), id: z.string() });
const errors = { 400: errorBodySchema, 402: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };
const tags = ['reports'];

const JOB_REPORT_NOT_FOUND = 'The report';

/** Only campaign executions have a job report today (reports/{name}/{id}, docs/campaigns.md). */
function requireCampaignReport(name: string): void {
  if (!(jobReportNames as readonly string[]).includes(name)) throw notFound(JOB_REPORT_NOT_FOUND);
}

/** The job report of a campaign execution (the 'Message Report' dialog) and resending its failed messages. */
export const jobReportRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const { database } = ctx;
  const db = database.db;

  app.get(
    '/accounts/:acc/reports/:name/:id',
    {
      schema: {
        tags,
        summary: "A job report: an execution's messages by status, its errors and the contacts it left out",
        description:
          'Name `campaign` with the id of a campaign execution (another name answers 404). `statistics` counts the ' +
          "execution's outgoing messages by status and the replies received in the conversations it texted since " +
          'its message there (`outgoing: false`).',
        params: reportParams,
        response: { 200: campaignJobReportRecordSchema, ...errors },
      },
      config: { permission: 'account.view' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      requireCampaignReport(request.params.name);
      const report = await campaignJobReport(db, accountId, request.params.id);
      if (report === null) throw notFound(EXECUTION_NOT_FOUND);
      return { data: presentCampaignJobReport(report) };
    },
  );

  app.post(
    '/accounts/:acc/reports/:name/:id/resend',
    {
      schema: {
        tags,
        summary: 'Resend the failed messages of a campaign execution, as a new execution of the campaign',
        description:
          'Texts again, with the same text, media and sender, the recipients whose message failed or was not ' +
          'delivered, or who were not sent when their turn came. Consent is checked again; 402 `Insufficient ' +
          'Credit` when the balance is below the estimate; 409 while the execution is still sending; 400 when ' +
          'nothing is left to resend. Answers 202 with the new execution.',
        params: reportParams,
        response: { 202: campaignExecutionRecordSchema, ...errors },
      },
      config: { permission: 'campaigns.execute' },
    },
    async (request, reply) => {
      const { accountId } = membershipOf(request);
      requireCampaignReport(request.params.name);
      const starter = executionStarter(ctx, request);
      const job = await resendFailedMessages(
        db,
        starter.enqueue,
        { accountId, jobId: request.params.id, userId: starter.userId },
        starter.onEnqueueFailure,
      );
      return reply.code(202).send(await presentStartedExecution(ctx, accountId, job.id));
    },
  );
  return Promise.resolve();
};
