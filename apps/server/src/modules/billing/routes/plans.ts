import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  accountPlanStatusSchema,
  changePlanResultSchema,
  changePlanSchema,
  errorBodySchema,
  PLAN_CHANGE_PROCESSING_MESSAGE,
  planListQuerySchema,
  planListSchema,
} from '@parley/shared';
import { membershipOf, principalOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import { notFound } from '../../../platform/errors.js';
import { loadAccount } from '../accountPlan.js';
import { listedPlans, presentCatalogPlan } from '../catalog.js';
import { customerOf } from '../payments/customers.js';
import { paymentsOf } from '../payments/factory.js';
import { changePlan } from '../planChange.js';
import { presentPlanStatus } from '../presenters.js';

/**
 * GET /v1/accounts/{acc}/plans (the catalog), GET /v1/accounts/{acc}/plan (the plan and its subscription) and
 * PUT /v1/accounts/{acc}/plan (a change through the provider).
 */
export const planRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const params = z.object({ acc: z.uuid() });
  app.get(
    '/accounts/:acc/plans',
    {
      schema: {
        tags: ['billing'],
        summary: "The plans on offer, cheapest first, with support level and the segments each buys in the account's country",
        params,
        querystring: planListQuerySchema,
        response: { 200: planListSchema, 403: errorBodySchema, 404: errorBodySchema },
      },
      config: { permission: 'billing.view' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      const { offset, limit } = request.query;
      const loaded = await loadAccount(ctx.database.db, accountId);
      if (!loaded) throw notFound('The account');
      const rows = await listedPlans(ctx.database.db);
      const last = rows.at(-1)?.id;
      const data = rows
        .slice(offset, offset + limit)
        .map((plan) => presentCatalogPlan(plan, loaded.account.defaultCountry, plan.id === last, loaded.account.planId));
      return { data, pagination: { totalCount: rows.length, offset, limit } };
    },
  );
  app.get(
    '/accounts/:acc/plan',
    {
      schema: {
        tags: ['billing'],
        summary: "The account's plan and its subscription at the provider (the next bill date), if it has one",
        params,
        response: { 200: accountPlanStatusSchema, 403: errorBodySchema, 404: errorBodySchema },
      },
      config: { permission: 'billing.view' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      const loaded = await loadAccount(ctx.database.db, accountId);
      if (!loaded) throw notFound('The account');
      return { data: presentPlanStatus(loaded.plan, await customerOf(ctx.database.db, paymentsOf(ctx), accountId)) };
    },
  );
  app.put(
    '/accounts/:acc/plan',
    {
      schema: {
        tags: ['billing'],
        summary: 'Change plan (the card on file pays, prorated); the plan changes when the provider confirms',
        params,
        body: changePlanSchema,
        response: { 200: changePlanResultSchema, 400: errorBodySchema, 402: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema },
      },
      config: { permission: 'billing.manage' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      const principal = principalOf(request);
      const outcome = await changePlan(ctx.database.db, paymentsOf(ctx), {
        accountId,
        userId: principal.clientId === undefined ? principal.userId : null,
        planId: request.body.id,
        segmentUnderstanding: request.body.segmentUnderstanding,
      });
      return {
        data: {
          status: outcome.status,
          action: outcome.clientSecret === null ? null : { client_secret: outcome.clientSecret },
          error: null,
          message: PLAN_CHANGE_PROCESSING_MESSAGE,
        },
      };
    },
  );
  return Promise.resolve();
};
