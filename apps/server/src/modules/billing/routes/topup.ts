import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema, topupResultSchema, topupSchema, type Topup } from '@parley/shared';
import { membershipOf, principalOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { paymentsOf } from '../payments/factory.js';
import { presentPayment } from '../presenters.js';
import { requestTopup } from '../topup.js';

export const IDEMPOTENCY_KEY_MESSAGE = 'The Idempotency-Key header must be 1 to 200 visible characters.';

const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,200}$/;

/** The Idempotency-Key header, or null when none was sent. */
function idempotencyKeyOf(request: FastifyRequest): string | null {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return null;
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || !IDEMPOTENCY_KEY_PATTERN.test(value.trim())) throw new AppError(400, 'bad_request', IDEMPOTENCY_KEY_MESSAGE);
  return value.trim();
}

/**
 * POST and PUT /v1/accounts/{acc}/topup (both are taken): a payment with the card on file, answered while
 * it is processing; the balance moves when the provider confirms it (docs/billing.md).
 */
export const topupRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const handler = async (request: FastifyRequest<{ Body: Topup }>, reply: FastifyReply) => {
    const { accountId } = membershipOf(request);
    const principal = principalOf(request);
    const outcome = await requestTopup(ctx.database.db, paymentsOf(ctx), {
      accountId,
      userId: principal.clientId === undefined ? principal.userId : null,
      amount: request.body.amount,
      idempotencyKey: idempotencyKeyOf(request),
    });
    return reply.code(200).send({
      data: { payment: presentPayment(outcome.payment), clientSecret: outcome.clientSecret, balance: outcome.balance, duplicate: outcome.duplicate },
    });
  };
  const schema = {
    tags: ['billing'],
    summary: "Top up the balance with the card on file; answered while processing, the balance moves when the provider confirms. An Idempotency-Key header pays once",
    params: z.object({ acc: z.uuid() }),
    body: topupSchema,
    response: { 200: topupResultSchema, 400: errorBodySchema, 402: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema },
  };
  app.post('/accounts/:acc/topup', { schema, config: { permission: 'billing.manage', ownIdempotencyKey: true } }, handler);
  app.put('/accounts/:acc/topup', { schema, config: { permission: 'billing.manage', ownIdempotencyKey: true } }, handler);
  return Promise.resolve();
};
