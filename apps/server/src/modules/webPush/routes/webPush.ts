import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorBodySchema,
  registerWebPushSchema,
  unregisterWebPushSchema,
  WEB_PUSH_API_CLIENTS_MESSAGE,
  WEB_PUSH_UNAVAILABLE_MESSAGE,
  webPushSettingsResponseSchema,
  webPushSubscriptionResponseSchema,
} from '@parley/shared';
import { membershipOf, principalOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { peopleOnly } from '../../identity/index.js';
import { vapidKeysFor } from '../keys.js';
import { registerSubscription, unregisterSubscription } from '../subscriptions.js';

const accountParams = z.object({ acc: z.uuid() });
const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };
const USER_AGENT_MAX = 500;

/**
 * Web push registration (docs/webPush.md): any member of the account may have notifications of the messages
 * they may see. Push is for people: API credentials are refused, before the body is judged.
 */
export const webPushRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const db = ctx.database.db;
  const onlyPeople = peopleOnly(WEB_PUSH_API_CLIENTS_MESSAGE);
  // Asking for the key is what makes it, the first time: the web app asks before it subscribes.
  const keys = () => vapidKeysFor(ctx.database, ctx.config.secrets, ctx.log, { create: true });

  app.get(
    '/accounts/:acc/webpush',
    {
      schema: {
        tags: ['webpush'],
        summary: 'The key browsers subscribe with (applicationServerKey), or null when this server cannot push',
        params: accountParams,
        response: { 200: webPushSettingsResponseSchema, ...errors },
      },
      config: { permission: 'account.view' },
      preValidation: onlyPeople,
    },
    async () => ({ data: { publicKey: (await keys())?.publicKey ?? null } }),
  );

  app.post(
    '/accounts/:acc/webpush/register',
    {
      schema: {
        tags: ['webpush'],
        summary:
          "Register this browser for notifications of the account's new messages (the person's own; a browser follows the last account and person that registered it)",
        params: accountParams,
        body: registerWebPushSchema,
        response: { 200: webPushSubscriptionResponseSchema, 201: webPushSubscriptionResponseSchema, ...errors },
      },
      config: { permission: 'account.view' },
      preValidation: onlyPeople,
    },
    async (request, reply) => {
      const { accountId } = membershipOf(request);
      const { userId } = principalOf(request);
      if ((await keys()) === null) throw new AppError(409, 'conflict', WEB_PUSH_UNAVAILABLE_MESSAGE);
      const { endpoint, keys: browserKeys } = request.body.subscription;
      const userAgent = request.headers['user-agent'];
      const registration = await registerSubscription(db, {
        accountId,
        userId,
        endpoint,
        p256dh: browserKeys.p256dh,
        auth: browserKeys.auth,
        userAgent: typeof userAgent === 'string' && userAgent !== '' ? userAgent.slice(0, USER_AGENT_MAX) : null,
      });
      return reply.code(registration.created ? 201 : 200).send({
        data: { id: registration.id, endpoint: registration.endpoint, created: { at: registration.createdAt.toISOString() } },
      });
    },
  );

  app.delete(
    '/accounts/:acc/webpush/register',
    {
      schema: {
        tags: ['webpush'],
        summary: "Stop this browser's notifications of the account (nothing to stop answers the same)",
        params: accountParams,
        body: unregisterWebPushSchema,
        response: { 204: z.null(), ...errors },
      },
      config: { permission: 'account.view' },
      preValidation: onlyPeople,
    },
    async (request, reply) => {
      const { accountId } = membershipOf(request);
      const { userId } = principalOf(request);
      await unregisterSubscription(db, { accountId, userId, endpoint: request.body.endpoint });
      return reply.code(204).send(null);
    },
  );
  return Promise.resolve();
};
