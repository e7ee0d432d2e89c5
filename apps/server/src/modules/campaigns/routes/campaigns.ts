import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  campaignListQuerySchema,
  campaignListSchema,
  campaignRecordSchema,
  errorBodySchema,
  saveCampaignSchema,
  successResponseSchema,
} from '@parley/shared';
import { CAMPAIGN_NOT_FOUND } from '../campaignExecutor.js';
import { createCampaign, findCampaign, listCampaigns, removeCampaign, updateCampaign } from '../campaignManager.js';
import { membershipOf, principalOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import { notFound } from '../../../platform/errors.js';
import { templateViewer } from '../../templates/index.js';
import { presentCampaign } from '../campaignPresenter.js';
import { campaignExecutionRoutes } from './executions.js';

const accountParams = z.object({ acc: z.uuid() });
// Any string: a malformed id is simply not found, like another account's.
const campaignParams = z.object({ acc: z.uuid(), id: z.string() });
const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

/** Campaigns: the records here, their executions in executions.ts. docs/campaigns.md. */
export const campaignRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const db = ctx.database.db;
  const tags = ['campaigns'];

  app.get(
    '/accounts/:acc/campaigns',
    {
      schema: {
        tags,
        summary: "The account's campaigns, the most recently updated first (inactive ones with showInactive=true)",
        params: accountParams,
        querystring: campaignListQuerySchema,
        response: { 200: campaignListSchema, ...errors },
      },
      config: { permission: 'account.view' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      const query = request.query;
      const { rows, totalCount } = await listCampaigns(db, accountId, query);
      return { data: rows.map(presentCampaign), pagination: { totalCount, offset: query.offset, limit: query.limit } };
    },
  );

  app.post(
    '/accounts/:acc/campaigns',
    {
      schema: {
        tags,
        summary: 'Add a campaign: Manual, Scheduled (with a schedule) or File Upload (with field mappings)',
        params: accountParams,
        body: saveCampaignSchema,
        response: { 201: campaignRecordSchema, ...errors },
      },
      config: { permission: 'campaigns.write' },
    },
    async (request, reply) => {
      const membership = membershipOf(request);
      const principal = principalOf(request);
      const userId = principal.clientId === undefined ? principal.userId : null;
      const row = await createCampaign(db, membership.accountId, templateViewer(principal, membership), userId, request.body);
      return reply.code(201).send({ data: presentCampaign(row) });
    },
  );

  app.get(
    '/accounts/:acc/campaigns/:id',
    {
      schema: { tags, summary: 'One campaign', params: campaignParams, response: { 200: campaignRecordSchema, ...errors } },
      config: { permission: 'account.view' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      const row = await findCampaign(db, accountId, request.params.id);
      if (!row) throw notFound(CAMPAIGN_NOT_FOUND);
      return { data: presentCampaign(row) };
    },
  );

  app.put(
    '/accounts/:acc/campaigns/:id',
    {
      schema: {
        tags,
        summary: 'Replace a campaign (its executions and their count stay)',
        params: campaignParams,
        body: saveCampaignSchema,
        response: { 200: campaignRecordSchema, ...errors },
      },
      config: { permission: 'campaigns.write' },
    },
    async (request) => {
      const membership = membershipOf(request);
      const principal = principalOf(request);
      const row = await updateCampaign(db, membership.accountId, request.params.id, templateViewer(principal, membership), request.body);
      return { data: presentCampaign(row) };
    },
  );

  app.delete(
    '/accounts/:acc/campaigns/:id',
    {
      schema: {
        tags,
        summary: 'Remove a campaign and its executions (not while one is sending); answers { success: true }',
        params: campaignParams,
        response: { 200: successResponseSchema, ...errors },
      },
      config: { permission: 'campaigns.write' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      await removeCampaign(db, accountId, request.params.id);
      return { success: true as const };
    },
  );

  await app.register(campaignExecutionRoutes, { ctx });
};
