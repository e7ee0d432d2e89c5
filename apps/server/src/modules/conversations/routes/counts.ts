import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { countsSchema, errorBodySchema, isCountType, unknownCountTypeMessage } from '@parley/shared';
import type { AppContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { countUnreadConversations } from '../conversationQueries.js';
import { viewerOf } from './conversationRequest.js';

// Any string: an unknown type answers 404 with the known ones, not a validation error.
const countParams = z.object({ acc: z.uuid(), type: z.string() });

export const countRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const db = ctx.database.db;

  app.get(
    '/accounts/:acc/counts/:type',
    {
      schema: {
        tags: ['conversations'],
        summary: 'Counts by type; `unread`: the open conversations the user sees that have unread messages',
        params: countParams,
        response: { 200: countsSchema, 403: errorBodySchema, 404: errorBodySchema },
      },
      config: { permission: 'account.view' },
    },
    async (request) => {
      const { accountId, viewer } = viewerOf(request);
      const { type } = request.params;
      // One type today; a second one makes this a switch over CountType.
      if (!isCountType(type)) throw new AppError(404, 'not_found', unknownCountTypeMessage(type));
      return { data: { unread: await countUnreadConversations(db, accountId, viewer) } };
    },
  );

  return Promise.resolve();
};
