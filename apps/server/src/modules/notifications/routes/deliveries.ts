import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorBodySchema,
  notificationDeliveryListQuerySchema,
  notificationDeliveryListSchema,
  notificationDeliveryRecordSchema,
  recordResponse,
  notificationDeliverySchema,
  rotatedSecretSchema,
} from '@parley/shared';
import { membershipOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import { notFound } from '../../../platform/errors.js';
import { resendDelivery, rotateWebhookSecret, sendTestEvent } from '../deliveryCommands.js';
import { presentAttempt, presentDelivery } from '../deliveryPresenter.js';
import { attemptsOf, findDelivery, listDeliveries } from '../deliveryQueries.js';
import { findNotification } from '../notificationQueries.js';
import { notificationDeps } from './deps.js';

// Any string: a malformed id is simply not found, like another account's.
const notificationParams = z.object({ acc: z.uuid(), id: z.string() });
const deliveryParams = z.object({ acc: z.uuid(), id: z.string(), deliveryId: z.string() });
const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };
const deliveryAnswer = recordResponse(notificationDeliverySchema);

/** The delivery log of a notification, its resend and test event, and a webhook's secret rotation (docs/notifications.md). */
export const deliveryRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const db = ctx.database.db;
  const deps = notificationDeps(ctx);
  const tags = ['notifications'];

  app.get(
    '/accounts/:acc/notifications/:id/deliveries',
    {
      schema: {
        tags,
        summary: "A notification's deliveries, newest first, each with its last try",
        params: notificationParams,
        querystring: notificationDeliveryListQuerySchema,
        response: { 200: notificationDeliveryListSchema, ...errors },
      },
      config: { permission: 'account.view' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      const { offset, limit, status } = request.query;
      if ((await findNotification(db, accountId, request.params.id)) === null) throw notFound('The notification');
      const { rows, totalCount } = await listDeliveries(db, accountId, request.params.id, { offset, limit, ...(status === undefined ? {} : { status }) });
      return { data: rows.map(({ delivery, last }) => presentDelivery(delivery, last)), pagination: { totalCount, offset, limit } };
    },
  );

  app.get(
    '/accounts/:acc/notifications/:id/deliveries/:deliveryId',
    {
      schema: { tags, summary: 'One delivery with every try', params: deliveryParams, response: { 200: notificationDeliveryRecordSchema, ...errors } },
      config: { permission: 'account.view' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      const delivery = await findDelivery(db, accountId, request.params.id, request.params.deliveryId);
      if (delivery === null) throw notFound('The delivery');
      const tries = await attemptsOf(db, delivery);
      return { data: { ...presentDelivery(delivery, tries.at(-1) ?? null), attemptLog: tries.map(presentAttempt) } };
    },
  );

  app.post(
    '/accounts/:acc/notifications/:id/deliveries/:deliveryId/resend',
    {
      schema: { tags, summary: 'Send a delivery again now, with the same event id', params: deliveryParams, response: { 202: deliveryAnswer, ...errors } },
      config: { permission: 'notifications.write' },
    },
    async (request, reply) => {
      const row = await resendDelivery(db, membershipOf(request).accountId, request.params.id, request.params.deliveryId);
      return reply.code(202).send({ data: presentDelivery(row, null) });
    },
  );

  app.post(
    '/accounts/:acc/notifications/:id/test',
    {
      schema: { tags, summary: 'Send a test event (webhook-test) to this notification', params: notificationParams, response: { 202: deliveryAnswer, ...errors } },
      config: { permission: 'notifications.write' },
    },
    async (request, reply) => {
      const row = await sendTestEvent(db, membershipOf(request).accountId, request.params.id);
      return reply.code(202).send({ data: presentDelivery(row, null) });
    },
  );

  app.post(
    '/accounts/:acc/notifications/:id/secret',
    {
      schema: {
        tags,
        summary: "Rotate a webhook's signing secret: the new one is answered once; the previous one keeps signing beside it for 24 hours",
        params: notificationParams,
        response: { 200: rotatedSecretSchema, ...errors },
      },
      config: { permission: 'notifications.write' },
    },
    async (request) => {
      const rotated = await rotateWebhookSecret(deps, membershipOf(request).accountId, request.params.id);
      return { data: { secret: rotated.secret, previousValidUntil: rotated.previousValidUntil.toISOString() } };
    },
  );
  return Promise.resolve();
};
