import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema, notificationListQuerySchema, notificationListSchema, notificationRecordSchema, saveNotificationSchema } from '@parley/shared';
import { membershipOf, principalOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import { notFound } from '../../../platform/errors.js';
import { addNotification, removeNotification, updateNotification } from '../notificationManager.js';
import { presentNotification, presentSaved } from '../notificationPresenter.js';
import { findNotification, listNotifications } from '../notificationQueries.js';
import { notificationDeps, creatorOf } from './deps.js';

const accountParams = z.object({ acc: z.uuid() });
// Any string: a malformed id is simply not found, like another account's.
const notificationParams = z.object({ acc: z.uuid(), id: z.string() });
const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

export const notificationRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const db = ctx.database.db;
  const deps = notificationDeps(ctx);
  const tags = ['notifications'];

  app.get(
    '/accounts/:acc/notifications',
    {
      schema: {
        tags,
        summary: "The account's e-mail and webhook notifications, oldest first",
        params: accountParams,
        querystring: notificationListQuerySchema,
        response: { 200: notificationListSchema, ...errors },
      },
      config: { permission: 'account.view' },
    },
    async (request) => {
      const { offset, limit } = request.query;
      const { rows, totalCount } = await listNotifications(db, membershipOf(request).accountId, { offset, limit });
      return { data: rows.map((row) => presentNotification(row)), pagination: { totalCount, offset, limit } };
    },
  );

  app.post(
    '/accounts/:acc/notifications',
    {
      schema: {
        tags,
        summary: "Add a notification: an e-mail address or a webhook URL and the event types it gets (a webhook's signing secret is answered once)",
        params: accountParams,
        body: saveNotificationSchema,
        response: { 201: notificationRecordSchema, ...errors },
      },
      config: { permission: 'notifications.write' },
    },
    async (request, reply) => {
      const saved = await addNotification(deps, membershipOf(request).accountId, creatorOf(principalOf(request)), request.body);
      return reply.code(201).send({ data: presentSaved(saved) });
    },
  );

  app.get(
    '/accounts/:acc/notifications/:id',
    {
      schema: { tags, summary: 'One notification', params: notificationParams, response: { 200: notificationRecordSchema, ...errors } },
      config: { permission: 'account.view' },
    },
    async (request) => {
      const row = await findNotification(db, membershipOf(request).accountId, request.params.id);
      if (row === null) throw notFound('The notification');
      return { data: presentNotification(row) };
    },
  );

  app.put(
    '/accounts/:acc/notifications/:id',
    {
      schema: {
        tags,
        summary: 'Change a notification: its destination, event types, filters and whether it is disabled (its type stays)',
        params: notificationParams,
        body: saveNotificationSchema,
        response: { 200: notificationRecordSchema, ...errors },
      },
      config: { permission: 'notifications.write' },
    },
    async (request) => {
      const row = await updateNotification(deps, membershipOf(request).accountId, request.params.id, request.body);
      return { data: presentNotification(row) };
    },
  );

  app.delete(
    '/accounts/:acc/notifications/:id',
    {
      schema: { tags, summary: 'Remove a notification', params: notificationParams, response: { 204: z.null(), ...errors } },
      config: { permission: 'notifications.write' },
    },
    async (request, reply) => {
      await removeNotification(db, membershipOf(request).accountId, request.params.id);
      return reply.code(204).send(null);
    },
  );
  return Promise.resolve();
};
