import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema, paymentSourceResultSchema, paymentSourceSetupSchema, setPaymentSourceSchema, type SetPaymentSource } from '@parley/shared';
import { membershipOf, principalOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import { customerOf } from '../payments/customers.js';
import { paymentsOf } from '../payments/factory.js';
import { setPaymentSource } from '../paymentSource.js';
import { presentPaymentSource } from '../presenters.js';

/** GET, POST and PUT /v1/accounts/{acc}/paymentsource: the card on file, and saving another (docs/billing.md). */
export const paymentSourceRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const params = z.object({ acc: z.uuid() });
  app.get(
    '/accounts/:acc/paymentsource',
    {
      schema: {
        tags: ['billing'],
        summary: "The account's payment card (brand, last 4, expiry), or null: No Payment Setup",
        params,
        response: { 200: paymentSourceResultSchema, 403: errorBodySchema, 404: errorBodySchema },
      },
      config: { permission: 'billing.view' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      const provider = paymentsOf(ctx);
      return { data: { paymentSource: presentPaymentSource(await customerOf(ctx.database.db, provider, accountId)), provider: provider.name } };
    },
  );
  const save = async (request: FastifyRequest<{ Body: SetPaymentSource }>, reply: FastifyReply) => {
    const { accountId } = membershipOf(request);
    const principal = principalOf(request);
    const setup = await setPaymentSource(ctx.database.db, paymentsOf(ctx), {
      accountId,
      userId: principal.clientId === undefined ? principal.userId : null,
      tokenId: request.body.tokenId,
    });
    return reply.code(200).send({ data: setup });
  };
  const schema = {
    tags: ['billing'],
    summary: 'Save the card a card form tokenised (tokenId) as the payment method; it shows once the provider confirms',
    params,
    body: setPaymentSourceSchema,
    response: { 200: paymentSourceSetupSchema, 400: errorBodySchema, 402: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema },
  };
  app.post('/accounts/:acc/paymentsource', { schema, config: { permission: 'billing.manage' } }, save);
  app.put('/accounts/:acc/paymentsource', { schema, config: { permission: 'billing.manage' } }, save);
  return Promise.resolve();
};
