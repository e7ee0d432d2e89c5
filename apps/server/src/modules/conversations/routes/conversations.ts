import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  conversationListQuerySchema,
  conversationListSchema,
  conversationQuerySchema,
  conversationRecordSchema,
  errorBodySchema,
  startConversationSchema,
} from '@parley/shared';
import type { AppContext } from '../../../platform/context.js';
import { conversationActionRoutes } from './conversationActions.js';
import { startConversation } from '../conversationCommands.js';
import { loadConversation, presentConversations } from '../conversationLoader.js';
import { listConversations } from '../conversationQueries.js';
import { conversationNotFound, viewerOf } from './conversationRequest.js';
import { countRoutes } from './counts.js';

const accountParams = z.object({ acc: z.uuid() });
// Any string: a malformed id is simply not found, like another account's.
const conversationParams = z.object({ acc: z.uuid(), id: z.string() });
const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

export const conversationRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const db = ctx.database.db;

  app.get(
    '/accounts/:acc/conversations',
    {
      schema: {
        tags: ['conversations'],
        summary: 'The conversations the user sees, newest activity first: filters closed, unread, contactId, q',
        description:
          'Open conversations unless `closed=true`. A conversation held by a group is seen by that group’s users ' +
          'and by Administrators (and API clients); one without a group by everyone in the account. Each carries ' +
          'its contact, number, group, last message and the ids of its unread messages.',
        params: accountParams,
        querystring: conversationListQuerySchema,
        response: { 200: conversationListSchema, ...errors },
      },
      config: { permission: 'account.view' },
    },
    async (request) => {
      const { accountId, viewer } = viewerOf(request);
      const query = request.query;
      const { records, totalCount } = await listConversations(db, accountId, viewer, query);
      return {
        data: await presentConversations(db, accountId, records),
        pagination: { totalCount, offset: query.offset, limit: query.limit },
      };
    },
  );

  app.get(
    '/accounts/:acc/conversations/:id',
    {
      schema: {
        tags: ['conversations'],
        summary: 'One conversation with the newest page of its messages (limit, offset)',
        params: conversationParams,
        querystring: conversationQuerySchema,
        response: { 200: conversationRecordSchema, ...errors },
      },
      config: { permission: 'account.view' },
    },
    async (request) => {
      const { accountId, viewer } = viewerOf(request);
      const conversation = await loadConversation(db, accountId, viewer, request.params.id, request.query);
      if (conversation === null) throw conversationNotFound();
      return { data: conversation };
    },
  );

  app.post(
    '/accounts/:acc/conversations',
    {
      schema: {
        tags: ['conversations'],
        summary: "Start a conversation: the contact's open one on the number (201 when opened, 200 when it existed)",
        description:
          'The number is the one named (active, of the account), else the one the contact last talked to, else ' +
          'the account’s oldest active number; a new conversation belongs to the group holding the number. A ' +
          'blocked, opted-out or invalid contact is refused (409), as is a conversation of a group the user is not in.',
        params: accountParams,
        body: startConversationSchema,
        response: { 200: conversationRecordSchema, 201: conversationRecordSchema, ...errors },
      },
      config: { permission: 'conversations.start' },
    },
    async (request, reply) => {
      const { accountId, viewer } = viewerOf(request);
      const { id, started } = await startConversation(db, accountId, viewer, request.body);
      const conversation = await loadConversation(db, accountId, viewer, id);
      if (conversation === null) throw conversationNotFound();
      return reply.code(started ? 201 : 200).send({ data: conversation });
    },
  );

  await app.register(conversationActionRoutes, { ctx });
  await app.register(countRoutes, { ctx });
};
