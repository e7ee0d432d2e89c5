import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema, listQuerySchema, subscribeWebhookSchema, webhookSubscriptionListSchema, webhookSubscriptionRecordSchema } from '@parley/shared';
import { membershipOf, principalOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import { subscribeWebhook, unsubscribeWebhook } from '../notificationManager.js';
import { presentWebhookSubscription } from '../notificationPresenter.js';
import { listNotifications } from '../notificationQueries.js';
import { creatorOf, notificationDeps } from './deps.js';

/*
 * The hosted product's webhook subscriptions (docs/api.md, "Compatibility"): the account's webhook
 * notifications seen by URL, in that API's shapes, so its clients keep working.
 */

const accountParams = z.object({ acc: z.uuid() });
const urlParams = z.object({ acc: z.uuid(), url: z.string().min(1) });
const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

export const webhookSubscriptionRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const db = ctx.database.db;
  const deps = notificationDeps(ctx);
  const tags = ['webhooks'];

  app.get(
    '/accounts/:acc/webhooks',
    {
      schema: {
        tags,
        summary: "The account's webhook subscriptions (its webhook notifications) by URL and event types",
        params: accountParams,
        querystring: listQuerySchema,
        response: { 200: webhookSubscriptionListSchema, ...errors },
      },
      config: { permission: 'account.view' },
    },
    async (request) => {
      const { offset, limit } = request.query;
      const { rows, totalCount } = await listNotifications(db, membershipOf(request).accountId, { offset, limit, type: 'webhook' });
      return { success: true as const, data: rows.map((row) => presentWebhookSubscription({ row })), pagination: { totalCount, offset, limit } };
    },
  );

  app.post(
    '/accounts/:acc/webhooks',
    {
      schema: {
        tags,
        summary: 'Subscribe a URL to event types (all of them when none are sent); a URL already subscribed gets the event types sent',
        params: accountParams,
        body: subscribeWebhookSchema,
        response: { 200: webhookSubscriptionRecordSchema, ...errors },
      },
      config: { permission: 'notifications.write' },
    },
    async (request) => {
      const saved = await subscribeWebhook(deps, membershipOf(request).accountId, creatorOf(principalOf(request)), request.body);
      return { success: true as const, data: presentWebhookSubscription(saved) };
    },
  );

  app.delete(
    '/accounts/:acc/webhooks/:url',
    {
      schema: { tags, summary: 'Unsubscribe a URL (URL-encoded in the path)', params: urlParams, response: { 204: z.null(), ...errors } },
      config: { permission: 'notifications.write' },
    },
    async (request, reply) => {
      await unsubscribeWebhook(db, membershipOf(request).accountId, request.params.url);
      return reply.code(204).send(null);
    },
  );
  return Promise.resolve();
};
