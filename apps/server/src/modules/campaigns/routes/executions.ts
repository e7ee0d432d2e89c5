import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CAMPAIGN_FILE_BODY_MAX_BYTES,
  campaignExecutionListQuerySchema,
  campaignExecutionListSchema,
  campaignExecutionRecordSchema,
  campaignPreviewRecordSchema,
  errorBodySchema,
  executeCampaignBodySchema,
} from '@parley/shared';
import { CAMPAIGN_NOT_FOUND } from '../campaignExecutor.js';
import { audienceChunk, executeCampaign } from '../campaignPreparation.js';
import { listExecutions } from '../campaignExecutions.js';
import { findCampaign } from '../campaignManager.js';
import { previewCampaign } from '../campaignPreview.js';
import { membershipOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import { AppError, notFound } from '../../../platform/errors.js';
import { presentExecution, presentPreview } from '../campaignExecutionPresenter.js';
import { executionStarter, presentStartedExecution } from '../executionStart.js';

const campaignParams = z.object({ acc: z.uuid(), id: z.string() });
const errors = {
  400: errorBodySchema,
  402: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  413: errorBodySchema,
};

const MEGABYTE = 1024 * 1024;
export const FILE_TOO_LARGE_MESSAGE = `The rows are larger than ${String(CAMPAIGN_FILE_BODY_MAX_BYTES / MEGABYTE)} MB: split the file and execute each part.`;

/** Campaign executions (docs/campaigns.md): the list, the preview, and Execute Now / Upload File Now. */
export const campaignExecutionRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const { database } = ctx;
  const db = database.db;
  const tags = ['campaigns'];

  app.get(
    '/accounts/:acc/campaigns/:id/jobs',
    {
      schema: {
        tags,
        summary: "A campaign's executions, newest first",
        params: campaignParams,
        querystring: campaignExecutionListQuerySchema,
        response: { 200: campaignExecutionListSchema, ...errors },
      },
      config: { permission: 'account.view' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      const campaign = await findCampaign(db, accountId, request.params.id);
      if (!campaign) throw notFound(CAMPAIGN_NOT_FOUND);
      const { offset, limit } = request.query;
      const { records, totalCount } = await listExecutions(db, accountId, campaign.id, { offset, limit });
      return { data: records.map(presentExecution), pagination: { totalCount, offset, limit } };
    },
  );

  app.get(
    '/accounts/:acc/campaigns/:id/preview',
    {
      schema: {
        tags,
        summary: 'What executing the campaign now would do: contacts, estimated price, contacts left out by reason',
        params: campaignParams,
        response: { 200: campaignPreviewRecordSchema, ...errors },
      },
      config: { permission: 'account.view' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      return { data: presentPreview(await previewCampaign(db, accountId, request.params.id)) };
    },
  );

  app.post(
    '/accounts/:acc/campaigns/:id/execute',
    {
      bodyLimit: CAMPAIGN_FILE_BODY_MAX_BYTES,
      schema: {
        tags,
        summary: 'Execute the campaign now; a File Upload campaign with the rows of its file as the body',
        description:
          'Resolves the audience (or writes the rows’ contacts), prices it as sending will, and answers 402 ' +
          '`Insufficient Credit` when the balance is below the estimate (nothing changes). Otherwise answers 202 ' +
          'with the execution, whose messages are then queued in the background in small batches.',
        params: campaignParams,
        body: executeCampaignBodySchema,
        response: { 202: campaignExecutionRecordSchema, ...errors },
      },
      config: { permission: 'campaigns.execute' },
      preValidation: (request, _reply, done) => {
        // Clients that always send JSON post `{}` for a campaign without a file: that is no body.
        const body: unknown = request.body;
        if (body !== null && typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0) {
          (request as { body: unknown }).body = undefined;
        }
        done();
      },
      preParsing: (request, _reply, payload, done) => {
        // Refused before reading: the guard has already checked the role and the account.
        const length = Number(request.headers['content-length'] ?? 0);
        if (length > CAMPAIGN_FILE_BODY_MAX_BYTES) {
          done(new AppError(413, 'payload_too_large', FILE_TOO_LARGE_MESSAGE));
          return;
        }
        done(null, payload);
      },
    },
    async (request, reply) => {
      const { accountId } = membershipOf(request);
      const starter = executionStarter(ctx, request);
      const body = request.body;
      const job = await executeCampaign(
        db,
        starter.enqueue,
        { accountId, campaignId: request.params.id, userId: starter.userId, rows: Array.isArray(body) ? body : undefined },
        starter.onEnqueueFailure,
        { chunk: audienceChunk(database) },
      );
      return reply.code(202).send(await presentStartedExecution(ctx, accountId, job.id));
    },
  );
  return Promise.resolve();
};
