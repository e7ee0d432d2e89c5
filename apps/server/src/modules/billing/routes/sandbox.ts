import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema, sandboxAuthenticationSchema, sandboxCardSchema, sandboxCardTokenSchema } from '@parley/shared';
import type { AppContext } from '../../../platform/context.js';
import { AppError, notFound } from '../../../platform/errors.js';
import { paymentsOf } from '../payments/factory.js';
import { SandboxCardError, SandboxProvider } from '../payments/sandbox/sandboxProvider.js';

/** The sandbox provider: only when it is this deployment's. */
function sandboxOf(ctx: AppContext): SandboxProvider {
  const provider = paymentsOf(ctx);
  if (!(provider instanceof SandboxProvider)) throw notFound('The sandbox payment provider');
  return provider;
}

/**
 * The sandbox's own pages, as a provider's card form and 3-D Secure page would be (docs/billing.md): a test
 * card becomes a token for POST .../paymentsource, and a held authentication is approved or refused.
 */
export const sandboxPaymentRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  app.post(
    '/billing/sandbox/cards',
    {
      schema: {
        tags: ['billing'],
        summary: "The sandbox's card form: a test card (4242 4242 4242 4242 ...) becomes a token",
        body: sandboxCardSchema,
        response: { 200: sandboxCardTokenSchema, 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema },
      },
      config: { permission: 'authenticated' },
    },
    async (request) => {
      try {
        const tokenId = await sandboxOf(ctx).tokenizeCard(request.body.number, { month: request.body.expMonth, year: request.body.expYear });
        return { data: { tokenId } };
      } catch (error) {
        if (error instanceof SandboxCardError) throw new AppError(400, 'bad_request', error.message);
        throw error;
      }
    },
  );
  app.post(
    '/billing/sandbox/authenticate',
    {
      schema: {
        tags: ['billing'],
        summary: "The sandbox's authentication page (3-D Secure): approve or refuse what waits on a client secret",
        body: sandboxAuthenticationSchema,
        response: { 204: z.null(), 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema },
      },
      config: { permission: 'authenticated' },
    },
    async (request, reply) => {
      if (!(await sandboxOf(ctx).authenticate(request.body.clientSecret, request.body.approve))) throw notFound('The authentication');
      return reply.code(204).send(null);
    },
  );
  return Promise.resolve();
};
