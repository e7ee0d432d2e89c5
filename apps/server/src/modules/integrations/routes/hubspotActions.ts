import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@parley/shared';
import type { AppContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { sendHubSpotAction } from '../hubspot/hubspotActionSend.js';
import { parseHubSpotWorkflowAction } from '../hubspot/hubspotWorkflowAction.js';
import { connectorOf } from '../registry.js';

export const HUBSPOT_ACTION_UNSIGNED_MESSAGE = 'The request is not signed by HubSpot';

const answerSchema = z
  .object({
    outputFields: z.union([
      z.object({ hs_execution_state: z.literal('SUCCESS'), messageId: z.string() }),
      z.object({ hs_execution_state: z.literal('FAIL_CONTINUE'), errorCode: z.string(), errorMessage: z.string() }),
    ]),
  })
  .meta({ id: 'HubSpotActionAnswer' });

/** The JSON body, or a 400 (the signature was good, so HubSpot sent something Parley cannot read). */
function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError(400, 'bad_request', 'The body is not JSON');
  }
}

/**
 * POST /v1/integrations/hubspot/actions/send: HubSpot's call of the custom workflow action "Send an SMS with
 * Parley" (docs/integrations.md, "HubSpot"). Signed with the app's secret (signature v3), checked on the exact
 * body; a refused send answers HubSpot's FAIL_CONTINUE so the workflow goes on.
 */
export const hubspotActionRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  // This plugin's own parser: the signature covers the body byte for byte, so it must not be re-serialised.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 256 * 1024 }, (_request, body, done) => {
    done(null, typeof body === 'string' ? body : body.toString('utf8'));
  });
  app.post(
    '/integrations/hubspot/actions/send',
    {
      schema: {
        tags: ['integrations'],
        summary: "HubSpot's workflow action call: texts the enrolled contact (signed by HubSpot)",
        body: z.string(),
        response: { 200: answerSchema, 400: errorBodySchema, 401: errorBodySchema },
      },
      config: { permission: 'public' },
    },
    async (request) => {
      const verify = connectorOf('hubspot')?.verifyInbound;
      const signed = verify?.(ctx.config, { method: request.method, url: request.url, headers: request.headers, rawBody: Buffer.from(request.body, 'utf8') }) ?? false;
      if (!signed) throw new AppError(401, 'unauthorized', HUBSPOT_ACTION_UNSIGNED_MESSAGE);
      const parsed = parseHubSpotWorkflowAction(jsonOf(request.body));
      if (!parsed.ok) throw new AppError(400, 'bad_request', parsed.reason);
      return sendHubSpotAction(ctx.database.db, parsed.action);
    },
  );
  return Promise.resolve();
};
