import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema, slackWorkspacesResponseSchema } from '@parley/shared';
import { membershipOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import { channelDeps } from '../channels/channelDeps.js';
import { disconnectSlack, slackWorkspaces } from '../channels/slackWorkspace.js';

const accountParams = z.object({ acc: z.uuid() });
const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };
const tags = ['integrations'];

/**
 * The Slack integration page (docs/integrations.md, "Slack"): the workspaces the account's Slack notification
 * channels are installed in, and Disconnect (every Slack channel of the account revoked and removed).
 * Connecting is "Add to Slack" (`.../notificationchannels/slack/authorize`).
 */
export const slackWorkspaceRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const deps = channelDeps(ctx.database.db, ctx.config);

  app.get(
    '/accounts/:acc/integrations/slack/workspaces',
    { schema: { tags, summary: "The Slack workspaces of the account's Slack notification channels", params: accountParams, response: { 200: slackWorkspacesResponseSchema, ...errors } }, config: { permission: 'account.view' } },
    async (request) => ({ data: { configured: ctx.config.slack !== null, workspaces: await slackWorkspaces(ctx.database.db, membershipOf(request).accountId) } }),
  );

  app.delete(
    '/accounts/:acc/integrations/slack/workspaces',
    { schema: { tags, summary: "Disconnects Slack: every Slack channel's token revoked at Slack and the channel removed", params: accountParams, response: { 204: z.null(), ...errors } }, config: { permission: 'integrations.manage' } },
    async (request, reply) => {
      await disconnectSlack(deps, membershipOf(request).accountId);
      return reply.code(204).send(null);
    },
  );
  return Promise.resolve();
};
