import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CRADLE_SIGNATURE_HEADER, errorBodySchema } from '@parley/shared';
import type { AppContext } from '../../../platform/context.js';
import { receiveCradleWebhook } from '../cradle/cradleWebhook.js';

const answerSchema = z
  .object({
    call: z.object({ id: z.uuid() }).nullable(),
    textBack: z.enum(['sent', 'notAsked', 'alreadyDone', 'refused']),
  })
  .meta({ id: 'CradleWebhookAnswer' });

/**
 * POST /v1/integrations/cradle/webhook/{key}: Cradle's call events, signed with the connection's secret and
 * checked on the exact body (docs/integrations.md, "Cradle").
 */
export const cradleWebhookRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  // This plugin's own parser: the signature covers the body byte for byte, so it must not be re-serialised.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 256 * 1024 }, (_request, body, done) => {
    done(null, typeof body === 'string' ? body : body.toString('utf8'));
  });
  app.post(
    '/integrations/cradle/webhook/:key',
    {
      schema: {
        tags: ['integrations'],
        summary: "Cradle's call webhook: files the call by its number pair and texts back a missed call (signed with the connection's secret)",
        params: z.object({ key: z.string() }),
        body: z.string(),
        response: { 200: answerSchema, 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema },
      },
      config: { permission: 'public' },
    },
    async (request) =>
      receiveCradleWebhook(
        { db: ctx.database.db, config: ctx.config },
        { key: request.params.key, rawBody: Buffer.from(request.body, 'utf8'), signature: request.headers[CRADLE_SIGNATURE_HEADER] },
      ),
  );
  return Promise.resolve();
};
