import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CALL_API_CLIENT_MESSAGE, callRecordSchema, errorBodySchema, placeCallSchema } from '@parley/shared';
import type { AppContext } from '../../../platform/context.js';
import { membershipOf, peopleOnly, principalOf } from '../../identity/index.js';
import { presentCall } from '../callPresenter.js';
import { placeClickToCall } from '../clickToCall.js';

const params = z.object({ acc: z.uuid() });
const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 422: errorBodySchema, 502: errorBodySchema };

export const placeCallRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  app.post(
    '/accounts/:acc/calls',
    {
      schema: {
        tags: ['conversations'],
        summary: "Click-to-call: rings the user's own mobile from the account's number from.id, then connects them to destination",
        params,
        body: placeCallSchema,
        response: { 201: callRecordSchema, ...errors },
      },
      // Calling a contact is a send-like act: the roles that may send messages (Read Only may not).
      config: { permission: 'messages.send' },
      preValidation: peopleOnly(CALL_API_CLIENT_MESSAGE),
    },
    async (request, reply) => {
      const { accountId } = membershipOf(request);
      const call = await placeClickToCall(ctx.database.db, ctx.carriers, {
        accountId,
        userId: principalOf(request).userId,
        destination: request.body.destination,
        phoneNumberId: request.body.from.id,
      });
      return reply.code(201).send({ data: presentCall(call) });
    },
  );
  return Promise.resolve();
};
