import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@parley/shared';
import {
  acceptTwilioForms,
  callStatusCallback,
  dialTwiml,
  EMPTY_TWIML,
  readableTwilio,
  sayAndHangUpTwiml,
  twilioParamsSchema,
  twilioSigning,
  twilioWebhookUrls,
  TwilioWebhookError,
  type NumberCarrierRef,
  type TwilioParams,
} from '../../carriers/index.js';
import type { AppContext } from '../../../platform/context.js';
import { notFound } from '../../../platform/errors.js';
import { findOwnCall, progressCall, twilioCallProgress } from '../callProgress.js';
import { answerIncomingCall, NO_FORWARD_SPOKEN } from '../incomingCall.js';

const FORM = 'application/x-www-form-urlencoded';
const connectionParams = z.object({ settingsId: z.string() });
// Every string is taken: a call that is not found answers 404 whatever the id looks like.
const callQuery = z.object({ account: z.string(), call: z.string() });
const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 415: errorBodySchema };
const twimlRoute = {
  tags: ['carriers'],
  consumes: [FORM],
  produces: ['text/xml'],
  body: twilioParamsSchema,
  response: { 200: z.string().describe('TwiML'), ...errors },
};

const field = (params: TwilioParams, name: string): string => {
  const value = params[name];
  const one = Array.isArray(value) ? value[0] : value;
  if (one === undefined || one === '') throw new TwilioWebhookError(`${name} is missing`);
  return one;
};

/**
 * Twilio's voice webhooks (docs/calls.md), signed as every Twilio webhook (docs/security.md): an incoming
 * call to a number (its VoiceUrl) is forwarded to the number's forwardTo or recorded missed; a call's status
 * callback and Dial action move the call Parley placed or forwarded on.
 */
export const twilioVoiceRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  acceptTwilioForms(app);
  const { deploymentToken, connectionToken, verified } = twilioSigning(ctx);
  const db = ctx.database.db;

  const incoming = async (params: TwilioParams, settingsId: string | null): Promise<string> => {
    const source: NumberCarrierRef = { carrier: 'twilio', carrierSettingsId: settingsId };
    const call = readableTwilio(() => ({ callId: field(params, 'CallSid'), from: field(params, 'From'), to: field(params, 'To') }));
    const answer = await answerIncomingCall(db, source, 'twilio', call);
    switch (answer.kind) {
      case 'unknownNumber':
      case 'missed':
        return sayAndHangUpTwiml(NO_FORWARD_SPOKEN);
      case 'forward': {
        const action = callStatusCallback(twilioWebhookUrls(ctx.config.publicUrl, settingsId).callStatusUrl, answer.call.accountId, answer.call.externalId);
        // The forwarded phone sees who is calling, not the account's number.
        return dialTwiml({ number: answer.forwardTo, callerId: call.from, action });
      }
    }
  };

  const status = async (params: TwilioParams, query: z.infer<typeof callQuery>, settingsId: string | null): Promise<string> => {
    const progress = readableTwilio(() => twilioCallProgress(params));
    const call = await findOwnCall(db, query.account, query.call, { carrier: 'twilio', carrierSettingsId: settingsId });
    if (call === null) throw notFound('The call');
    if (progress !== null) await progressCall(db, call, progress);
    return EMPTY_TWIML;
  };

  app.post(
    '/carriers/twilio/voice',
    { schema: { ...twimlRoute, summary: "Twilio incoming call to a number of the deployment's Twilio account (signed): forwards it or records it missed" }, config: { permission: 'public' } },
    async (request, reply) => reply.code(200).type('text/xml').send(await incoming(verified(request, await deploymentToken(), request.body), null)),
  );
  app.post(
    '/carriers/twilio/:settingsId/voice',
    {
      schema: { ...twimlRoute, params: connectionParams, summary: "Twilio incoming call to a number of an account's own Twilio connection (signed)" },
      config: { permission: 'public' },
    },
    async (request, reply) => {
      const params = verified(request, await connectionToken(request.params.settingsId), request.body);
      return reply.code(200).type('text/xml').send(await incoming(params, request.params.settingsId));
    },
  );
  app.post(
    '/carriers/twilio/calls/status',
    {
      schema: { ...twimlRoute, querystring: callQuery, summary: "Twilio call status callback or Dial action, deployment's Twilio account (signed)" },
      config: { permission: 'public' },
    },
    async (request, reply) => {
      const params = verified(request, await deploymentToken(), request.body);
      return reply.code(200).type('text/xml').send(await status(params, request.query, null));
    },
  );
  app.post(
    '/carriers/twilio/:settingsId/calls/status',
    {
      schema: { ...twimlRoute, params: connectionParams, querystring: callQuery, summary: "Twilio call status callback or Dial action, an account's own Twilio connection (signed)" },
      config: { permission: 'public' },
    },
    async (request, reply) => {
      const params = verified(request, await connectionToken(request.params.settingsId), request.body);
      return reply.code(200).type('text/xml').send(await status(params, request.query, request.params.settingsId));
    },
  );
  return Promise.resolve();
};
