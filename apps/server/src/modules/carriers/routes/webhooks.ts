import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errorBodySchema } from '@parley/shared';
import { loadCarrierConnection } from '../connections.js';
import type { EngineHandlers } from '../registry.js';
import {
  parseTwilioInbound,
  parseTwilioStatus,
  TwilioWebhookError,
  twilioWebhookUrl,
  verifyTwilioSignature,
  type TwilioParams,
} from '../twilio/twilioWebhooks.js';
import type { AppContext } from '../../../platform/context.js';
import { AppError, notFound } from '../../../platform/errors.js';
import { existingSecretsCipher } from '../../../platform/secrets/keyring.js';

export interface CarrierWebhookOptions {
  ctx: Pick<AppContext, 'config' | 'database'>;
  /** The engine's handlers: what a verified webhook hands its receipt or inbound message to. */
  handlers: EngineHandlers;
}

const FORM = 'application/x-www-form-urlencoded';
const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response/>';
export const TWILIO_SIGNATURE_REFUSED_MESSAGE = 'The request does not carry a valid Twilio signature';

// Optional: a request without a form body is refused as unsigned (403), like any other.
const paramsSchema = z.record(z.string(), z.union([z.string(), z.array(z.string())])).nullish();
const connectionParams = z.object({ settingsId: z.string() });
const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 415: errorBodySchema };

/** A form body as Twilio's signature covers it: a repeated name gives every value. */
function formParams(body: string): TwilioParams {
  const params: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(body)) {
    const seen = params[name];
    params[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return params;
}

/**
 * Twilio's webhooks: status callbacks and inbound messages, for the deployment's Twilio account and for
 * accounts' own connections. Public (Twilio has no token of ours): each request must carry the
 * X-Twilio-Signature of the auth token it belongs to, over PUBLIC_URL plus the path and query it was sent to.
 */
export const carrierWebhookRoutes: FastifyPluginAsyncZod<CarrierWebhookOptions> = (app, { ctx, handlers }) => {
  const { config } = ctx;

  // Scoped to this plugin: the rest of the API takes JSON only.
  app.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => {
    done(null, formParams(typeof body === 'string' ? body : body.toString('utf8')));
  });

  const deploymentToken = (): Promise<string> => {
    const twilio = config.carriers.twilio;
    if (twilio === null) return Promise.reject(notFound('The Twilio carrier of this deployment'));
    return Promise.resolve(twilio.authToken);
  };

  const connectionToken = async (settingsId: string): Promise<string> => {
    const missing = notFound('The Twilio connection');
    const cipher = await existingSecretsCipher(config.secrets);
    if (cipher === null) throw missing;
    const connection = await loadCarrierConnection(ctx.database.db, cipher, settingsId);
    if (connection?.settings.carrier !== 'twilio') throw missing;
    return connection.secret;
  };

  /** The form parameters of a request signed with `authToken`; 403 for anything else, before anything is read. */
  const verified = (request: FastifyRequest, authToken: string, body: TwilioParams | null | undefined): TwilioParams => {
    const params = body ?? {};
    if (request.headers['content-type']?.split(';')[0]?.trim().toLowerCase() !== FORM) {
      throw new AppError(403, 'forbidden', TWILIO_SIGNATURE_REFUSED_MESSAGE);
    }
    const signature = request.headers['x-twilio-signature'];
    const ok = verifyTwilioSignature({
      url: twilioWebhookUrl(config.publicUrl, request.url),
      params,
      signature: typeof signature === 'string' ? signature : undefined,
      authToken,
    });
    if (!ok) throw new AppError(403, 'forbidden', TWILIO_SIGNATURE_REFUSED_MESSAGE);
    return params;
  };

  const readable = <T>(parse: () => T): T => {
    try {
      return parse();
    } catch (error) {
      if (error instanceof TwilioWebhookError) throw new AppError(400, 'bad_request', error.message);
      throw error;
    }
  };

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
