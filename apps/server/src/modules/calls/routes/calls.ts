import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callListQuerySchema, callListSchema, CONVERSATION_NOT_FOUND_MESSAGE, errorBodySchema } from '@parley/shared';
import type { AppContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { membershipOf, principalOf } from '../../identity/index.js';
import { conversationViewer } from '../../messaging/index.js';
import { presentCall } from '../callPresenter.js';
import { listConversationCalls } from '../callQueries.js';

// Every string is taken: a malformed id is simply not found, like another account's.
const params = z.object({ acc: z.uuid(), id: z.string() });
const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

export const callRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  app.get(
    '/accounts/:acc/conversations/:id/calls',
    {
      schema: {
        tags: ['conversations'],
        summary: "The conversation's calls, newest first (offset, limit): answered, missed, voicemail ... with their duration",
        params,
        querystring: callListQuerySchema,
        response: { 200: callListSchema, ...errors },
      },
      config: { permission: 'account.view' },
    },
    async (request) => {
      const membership = membershipOf(request);
      const viewer = conversationViewer(principalOf(request), membership);
      const found = await listConversationCalls(ctx.database.db, membership.accountId, viewer, request.params.id, request.query);
      if (found === null) throw new AppError(404, 'not_found', CONVERSATION_NOT_FOUND_MESSAGE);
      return { data: found.rows.map(presentCall), pagination: { totalCount: found.totalCount, offset: request.query.offset, limit: request.query.limit } };
    },
  );
  return Promise.resolve();
};
