import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { chargeListQuerySchema, chargeListSchema, errorBodySchema } from '@parley/shared';
import { presentCharge } from '../chargePresenter.js';
import { listCharges } from '../queries.js';
import { membershipOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';

export const chargeRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  app.get(
    '/accounts/:acc/charges',
    {
      schema: {
        tags: ['billing'],
        summary: "The account's ledger, newest first: credits (top-ups), debits (messages) and refunds",
        params: z.object({ acc: z.uuid() }),
        querystring: chargeListQuerySchema,
        response: { 200: chargeListSchema, 403: errorBodySchema, 404: errorBodySchema },
      },
      config: { permission: 'billing.view' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      const { offset, limit } = request.query;
      const { rows, totalCount } = await listCharges(ctx.database.db, accountId, { offset, limit });
      return { data: rows.map(presentCharge), pagination: { totalCount, offset, limit } };
    },
  );
  return Promise.resolve();
};
