import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@parley/shared';
import type { AppContext } from '../../../platform/context.js';
import { AppError, notFound } from '../../../platform/errors.js';
import { applyProviderEvent } from '../payments/applyEvent.js';
import { paymentsOf } from '../payments/factory.js';
import { WebhookRefusedError } from '../payments/provider.js';
import { followUpEvents } from '../settlement.js';

/**
 * POST /v1/billing/stripe/webhook: Stripe's events (docs/billing.md lists the types to send). The body is
 * read as the exact text Stripe signed; the library checks the signature and its age. An event applied
 * before answers 200 again and changes nothing, so Stripe stops retrying it.
 */
export const stripeWebhookRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  // This plugin's own parser: the signature covers the body byte for byte, so it must not be re-serialised.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 1024 * 1024 }, (_request, body, done) => {
    done(null, typeof body === 'string' ? body : body.toString('utf8'));
  });
  app.post(
    '/billing/stripe/webhook',
    {
      schema: {
        tags: ['billing'],
        summary: "Stripe's webhook endpoint (signed with the endpoint's secret)",
        body: z.string(),
        response: { 200: z.object({ received: z.boolean(), duplicate: z.boolean() }), 400: errorBodySchema, 404: errorBodySchema },
      },
      config: { permission: 'public' },
    },
    async (request) => {
      const provider = paymentsOf(ctx);
      if (provider.name !== 'stripe') throw notFound('The Stripe webhook of this deployment');
      const signature = request.headers['stripe-signature'];
      let event;
      try {
        event = await provider.readWebhook(request.body, Array.isArray(signature) ? signature[0] : signature);
      } catch (error) {
        if (error instanceof WebhookRefusedError) throw new AppError(400, 'bad_request', error.message);
        throw error;
      }
      const applied = await applyProviderEvent(ctx.database.db, event);
      await followUpEvents({ db: ctx.database.db, mailer: ctx.mailer, log: ctx.log }, [applied]);
      return { received: true, duplicate: !applied.applied };
    },
  );
  return Promise.resolve();
};
