import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@parley/shared';
import type { AppContext } from '../../../platform/context.js';
import { receiveCallRailWebhook } from '../callrail/callRailWebhook.js';

const answerSchema = z
  .object({
    call: z.object({ id: z.uuid() }),
    textBack: z.enum(['sent', 'notAsked', 'alreadyDone', 'refused']),
  })
  .meta({ id: 'CallRailWebhookAnswer' });

/**
 * POST /v1/integrations/callrail/webhook/{token}: CallRail's post-call (and call modified) webhook, signed
 * with the company's signing key and checked on the exact body (docs/integrations.md, "CallRail").
 */
export const callRailWebhookRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  // This plugin's own parser: the signature covers the body byte for byte, so it must not be re-serialised.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 256 * 1024 }, (_request, body, done) => {
    done(null, typeof body === 'string' ? body : body.toString('utf8'));
  });
  app.post(
    '/integrations/callrail/webhook/:token',
    {
      schema: {
        tags: ['integrations'],
        summary: "CallRail's post-call webhook: files the call in the caller's conversation and texts back a missed call (signed by CallRail)",
        params: z.object({ token: z.string() }),
        body: z.string(),
        response: { 200: answerSchema, 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema },
      },
      config: { permission: 'public' },
    },
    async (request) =>
      receiveCallRailWebhook(
        { db: ctx.database.db, config: ctx.config },
        { token: request.params.token, rawBody: Buffer.from(request.body, 'utf8'), signature: request.headers.signature },
      ),
  );
  return Promise.resolve();
};
