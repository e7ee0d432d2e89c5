import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { autoTopupResultSchema, autoTopupSchema, errorBodySchema, type AutoTopup } from '@parley/shared';
import { membershipOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import { autoTopupOf, setAutoTopup } from '../autoTopup.js';
import { paymentsOf } from '../payments/factory.js';

/** POST, PUT and DELETE /v1/accounts/{acc}/autotopup (GET reads it): 'below' and 'top up by' (docs/billing.md). */
export const autoTopupRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const params = z.object({ acc: z.uuid() });
  const answer = async (accountId: string) => {
    const { rule, stopped } = await autoTopupOf(ctx.database.db, accountId);
    return { data: { autotopup: rule, stopped } };
  };
  const response = { 200: autoTopupResultSchema, 400: errorBodySchema, 402: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
  app.get(
    '/accounts/:acc/autotopup',
    { schema: { tags: ['billing'], summary: "The account's auto top-up, or null when it is off", params, response }, config: { permission: 'billing.view' } },
    async (request) => answer(membershipOf(request).accountId),
  );
  const save = async (request: FastifyRequest<{ Body: AutoTopup }>, reply: FastifyReply) => {
    const { accountId } = membershipOf(request);
    await setAutoTopup(ctx.database.db, paymentsOf(ctx), accountId, request.body);
    return reply.code(200).send(await answer(accountId));
  };
  const schema = {
    tags: ['billing'],
    summary: 'Turn auto top-up on: when a debit takes the balance below `below`, the card on file tops up by `amount`',
    params,
    body: autoTopupSchema,
    response,
  };
  app.post('/accounts/:acc/autotopup', { schema, config: { permission: 'billing.manage' } }, save);
  app.put('/accounts/:acc/autotopup', { schema, config: { permission: 'billing.manage' } }, save);
  app.delete(
    '/accounts/:acc/autotopup',
    { schema: { tags: ['billing'], summary: 'Turn auto top-up off', params, response }, config: { permission: 'billing.manage' } },
    async (request) => {
      const { accountId } = membershipOf(request);
      await setAutoTopup(ctx.database.db, paymentsOf(ctx), accountId, null);
      return answer(accountId);
    },
  );
  return Promise.resolve();
};
