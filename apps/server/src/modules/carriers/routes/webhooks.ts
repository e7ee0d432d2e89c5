import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@parley/shared';
import type { EngineHandlers } from '../registry.js';
import { parseTwilioInbound, parseTwilioStatus, type TwilioParams } from '../twilio/twilioWebhooks.js';
import { EMPTY_TWIML } from '../twilio/twiml.js';
import type { AppContext } from '../../../platform/context.js';
import { acceptTwilioForms, readableTwilio, twilioParamsSchema, twilioSigning, TWILIO_FORM } from './twilioRequests.js';

export interface CarrierWebhookOptions {
  ctx: Pick<AppContext, 'config' | 'database'>;
  /** The engine's handlers: what a verified webhook hands its receipt or inbound message to. */
  handlers: EngineHandlers;
}

const FORM = TWILIO_FORM;

const paramsSchema = twilioParamsSchema;
const connectionParams = z.object({ settingsId: z.string() });
const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 415: errorBodySchema };

/**
 * Twilio's webhooks: status callbacks and inbound messages, for the deployment's Twilio account and for
 * accounts' own connections. Public (Twilio has no token of ours): each request must carry the
 * X-Twilio-Signature of the auth token it belongs to, over PUBLIC_URL plus the path and query it was sent to.
 */
export const carrierWebhookRoutes: FastifyPluginAsyncZod<CarrierWebhookOptions> = (app, { ctx, handlers }) => {
  acceptTwilioForms(app);
  const { deploymentToken, connectionToken, verified } = twilioSigning(ctx);
  const readable = readableTwilio;

  const statusRoute = { tags: ['carriers'], consumes: [FORM], body: paramsSchema, response: { 204: z.null(), ...errors } };
  // Sent as text/xml, which Fastify passes through as it is (no JSON serialization).
  const inboundRoute = {
    tags: ['carriers'],
    consumes: [FORM],
    produces: ['text/xml'],
    body: paramsSchema,
    response: { 200: z.string().describe('Empty TwiML: <Response/>'), ...errors },
  };

  const twilioOf = (carrierSettingsId: string | null) => handlers.forConnection({ carrier: 'twilio', carrierSettingsId });
  const status = async (params: TwilioParams, carrierSettingsId: string | null): Promise<void> => {
    const report = readable(() => parseTwilioStatus(params));
    // The steps before Twilio has the message out (queued, sending) change nothing of ours.
    if (report !== null) await twilioOf(carrierSettingsId).status(report);
  };
  const inbound = async (params: TwilioParams, carrierSettingsId: string | null): Promise<string> => {
    await twilioOf(carrierSettingsId).inbound(readable(() => parseTwilioInbound(params)));
    return EMPTY_TWIML;
  };

  app.post(
    '/carriers/twilio/status',
    {
      schema: { ...statusRoute, summary: "Twilio status callback for the deployment's Twilio account (signed by Twilio)" },
      config: { permission: 'public' },
    },
    async (request, reply) => {
      await status(verified(request, await deploymentToken(), request.body), null);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/carriers/twilio/inbound',
    {
      schema: { ...inboundRoute, summary: "Twilio inbound message for the deployment's Twilio numbers (signed by Twilio); answers empty TwiML" },
      config: { permission: 'public' },
    },
    async (request, reply) => {
      const twiml = await inbound(verified(request, await deploymentToken(), request.body), null);
      return reply.code(200).type('text/xml').send(twiml);
    },
  );

  app.post(
    '/carriers/twilio/:settingsId/status',
    {
      schema: { ...statusRoute, params: connectionParams, summary: "Twilio status callback for an account's own Twilio connection" },
      config: { permission: 'public' },
    },
    async (request, reply) => {
      await status(verified(request, await connectionToken(request.params.settingsId), request.body), request.params.settingsId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/carriers/twilio/:settingsId/inbound',
    {
      schema: {
        ...inboundRoute,
        params: connectionParams,
        summary: "Twilio inbound message for an account's own Twilio connection; answers empty TwiML",
      },
      config: { permission: 'public' },
    },
    async (request, reply) => {
      const twiml = await inbound(
        verified(request, await connectionToken(request.params.settingsId), request.body),
        request.params.settingsId,
      );
      return reply.code(200).type('text/xml').send(twiml);
    },
  );
  return Promise.resolve();
};
