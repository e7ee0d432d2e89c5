import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { assignGroupSchema, conversationRecordSchema, errorBodySchema, markConversationReadSchema } from '@parley/shared';
import type { AppContext } from '../../../platform/context.js';
import { WHOLE_ACCOUNT } from '../../messaging/index.js';
import { assignConversationGroup, closeConversation, markConversationRead } from '../conversationCommands.js';
import { loadConversation } from '../conversationLoader.js';
import { conversationNotFound, viewerOf } from './conversationRequest.js';

// Any string: a malformed id is simply not found, like another account's.
const conversationParams = z.object({ acc: z.uuid(), id: z.string() });
const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

/** Close, assign a group, mark read or unread: each answers the conversation as it now is. */
export const conversationActionRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const db = ctx.database.db;

  app.put(
    '/accounts/:acc/conversations/:id/close',
    {
      schema: {
        tags: ['conversations'],
        summary: 'Close a conversation: it cannot be answered any more, and the next message opens a new one',
        description: 'conversationClosed goes out. Closing a closed conversation changes nothing (200).',
        params: conversationParams,
        response: { 200: conversationRecordSchema, ...errors },
      },
      config: { permission: 'conversations.close' },
    },
    async (request) => {
      const { accountId, viewer } = viewerOf(request);
      await closeConversation(db, accountId, viewer, request.params.id);
      const conversation = await loadConversation(db, accountId, viewer, request.params.id);
      if (conversation === null) throw conversationNotFound();
      return { data: conversation };
    },
  );

  app.put(
    '/accounts/:acc/conversations/:id/assigngroup',
    {
      schema: {
        tags: ['conversations'],
        summary: 'Give the conversation to a group of the account (group.id), or to none (group: null)',
        description:
          'conversationUpdated goes to the new audience and to the old one. A user who gives a conversation to a ' +
          'group they are not in no longer sees it (the answer still carries it).',
        params: conversationParams,
        body: assignGroupSchema,
        response: { 200: conversationRecordSchema, ...errors },
      },
      config: { permission: 'conversations.assignGroup' },
    },
    async (request) => {
      const { accountId, viewer } = viewerOf(request);
      const groupId = request.body.group?.id ?? null;
      await assignConversationGroup(db, accountId, viewer, request.params.id, groupId);
      // Read with the whole account's view: the caller may have just given it away.
      const conversation = await loadConversation(db, accountId, WHOLE_ACCOUNT, request.params.id);
      if (conversation === null) throw conversationNotFound();
      return { data: conversation };
    },
  );

  app.put(
    '/accounts/:acc/conversations/:id/read',
    {
      schema: {
        tags: ['conversations'],
        summary: 'read=true marks every unread message read; read=false marks the last incoming (or failed) one unread',
        description: 'conversationRead goes out when anything changed.',
        params: conversationParams,
        body: markConversationReadSchema,
        response: { 200: conversationRecordSchema, ...errors },
      },
      config: { permission: 'messages.markRead' },
    },
    async (request) => {
      const { accountId, viewer } = viewerOf(request);
      await markConversationRead(db, accountId, viewer, request.params.id, request.body.read);
      const conversation = await loadConversation(db, accountId, viewer, request.params.id);
      if (conversation === null) throw conversationNotFound();
      return { data: conversation };
    },
  );

  return Promise.resolve();
};
