import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@parley/shared';
import type { AppContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { intercomReplyJob } from '../intercom/intercomReplyJob.js';
import { handleIntercomNotification, intercomNotification } from '../intercom/intercomWebhook.js';
import { connectorOf } from '../registry.js';

export const INTERCOM_WEBHOOK_UNSIGNED_MESSAGE = 'The request is not signed by the Intercom app';

function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError(400, 'bad_request', 'The body is not JSON');
  }
}

/**
 * POST /v1/integrations/intercom/webhook: Intercom's webhook notifications (docs/integrations.md, "Intercom"),
 * signed with the app's client secret (X-Hub-Signature, HMAC-SHA1 of the exact body). Unsigned or forged: 401.
 */
export const intercomWebhookRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const replyJob = intercomReplyJob({ db: ctx.database.db, config: ctx.config, jobs: ctx.jobs });
  const deps = { db: ctx.database.db, config: ctx.config, jobs: ctx.jobs, replyJob };
  // This plugin's own parser: the signature covers the body byte for byte, so it must not be re-serialised.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 1024 * 1024 }, (_request, body, done) => {
    done(null, typeof body === 'string' ? body : body.toString('utf8'));
  });
  app.post(
    '/integrations/intercom/webhook',
    {
      schema: {
        tags: ['integrations'],
        summary: "Intercom's webhook notifications: agents' replies texted after the reply delay, closes (signed by Intercom)",
        body: z.string(),
        response: { 200: z.object({ success: z.literal(true), outcome: z.enum(['ignored', 'scheduled', 'closed']) }), 400: errorBodySchema, 401: errorBodySchema },
      },
      config: { permission: 'public' },
    },
    async (request) => {
      const verify = connectorOf('intercom')?.verifyInbound;
      const signed = verify?.(ctx.config, { method: request.method, url: request.url, headers: request.headers, rawBody: Buffer.from(request.body, 'utf8') }) ?? false;
      if (!signed) throw new AppError(401, 'unauthorized', INTERCOM_WEBHOOK_UNSIGNED_MESSAGE);
      const parsed = intercomNotification.safeParse(jsonOf(request.body));
      if (!parsed.success) throw new AppError(400, 'bad_request', 'The body is not an Intercom notification');
      return { success: true as const, outcome: await handleIntercomNotification(deps, parsed.data) };
    },
  );
  return Promise.resolve();
};
