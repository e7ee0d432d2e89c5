import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorBodySchema,
  NOTIFICATION_CHANNEL_NAMES,
  notificationChannelKinds,
  notificationChannelKindListSchema,
  notificationChannelListSchema,
  notificationChannelRecordSchema,
  saveNotificationChannelSchema,
} from '@parley/shared';
import { membershipOf, principalOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { channelDeps } from '../channels/channelDeps.js';
import { disconnectChannel, saveChannel } from '../channels/channelManager.js';
import { kindOf, readChannel, readChannels, type ChannelReader } from '../channels/channelQueries.js';

const accountParams = z.object({ acc: z.uuid() });
// A kind (email, sms, slack) or the id of one of the user's channels; anything else is not found.
const channelParams = z.object({ acc: z.uuid(), channel: z.string() });
const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };
const API_CLIENTS_HAVE_NO_CHANNELS = 'Notification channels belong to people; an API client has none';

/**
 * Users' notification channels (docs/notifications.md, "Channels"): each user reads and changes only their
 * own, whatever their role (a channel tells them about what they may already see).
 */
export const notificationChannelRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const deps = channelDeps(ctx.database.db, ctx.config);
  const tags = ['notifications'];
  const readerOf = (request: Parameters<typeof membershipOf>[0]): ChannelReader => {
    const principal = principalOf(request);
    if (principal.clientId !== undefined) throw new AppError(403, 'forbidden', API_CLIENTS_HAVE_NO_CHANNELS);
    const membership = membershipOf(request);
    return { accountId: membership.accountId, userId: principal.userId, role: membership.role };
  };

  app.get(
    '/notificationchannels',
    {
      schema: { tags, summary: 'The notification channels this server offers (Slack only when configured)', response: { 200: notificationChannelKindListSchema, 401: errorBodySchema } },
      config: { permission: 'authenticated' },
    },
    () => ({ data: notificationChannelKinds.map((channel) => ({ channel, name: NOTIFICATION_CHANNEL_NAMES[channel], configured: channel !== 'slack' || ctx.config.slack !== null })) }),
  );

  app.get(
    '/accounts/:acc/notificationchannels',
    {
      schema: { tags, summary: "The user's channels, connected (installed) or not (available)", params: accountParams, response: { 200: notificationChannelListSchema, ...errors } },
      config: { permission: 'account.view' },
    },
    async (request) => ({ data: await readChannels(deps, readerOf(request), notificationChannelKinds, false) }),
  );

  app.get(
    '/accounts/:acc/notificationchannels/:channel',
    {
      schema: { tags, summary: "One of the user's channels, by kind or id; Slack's lists the workspace's channels", params: channelParams, response: { 200: notificationChannelRecordSchema, ...errors } },
      config: { permission: 'account.view' },
    },
    async (request) => {
      const reader = readerOf(request);
      const kind = await kindOf(deps, reader, request.params.channel);
      return { data: await readChannel(deps, reader, kind, kind === 'slack') };
    },
  );

  app.put(
    '/accounts/:acc/notificationchannels/:channel',
    {
      schema: { tags, summary: "Connect or change the user's channel: its groups (none: all), Slack's channel", params: channelParams, body: saveNotificationChannelSchema, response: { 200: notificationChannelRecordSchema, ...errors } },
      config: { permission: 'account.view' },
    },
    async (request) => {
      const reader = readerOf(request);
      const kind = await kindOf(deps, reader, request.params.channel);
      await saveChannel(deps, reader.accountId, reader.userId, kind, request.body);
      return { data: await readChannel(deps, reader, kind, false) };
    },
  );

  app.delete(
    '/accounts/:acc/notificationchannels/:channel/disconnect',
    {
      schema: { tags, summary: "Disconnect the user's channel; its waiting posts go with it", params: channelParams, response: { 204: z.null(), ...errors } },
      config: { permission: 'account.view' },
    },
    async (request, reply) => {
      const reader = readerOf(request);
      await disconnectChannel(deps.db, reader.accountId, reader.userId, request.params.channel);
      return reply.code(204).send(null);
    },
  );
  return Promise.resolve();
};
