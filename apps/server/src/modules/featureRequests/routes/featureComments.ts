import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { featureCommentInputSchema, featureCommentListSchema, featureCommentResponseSchema, listQuerySchema } from '@parley/shared';
import type { AppContext } from '../../../platform/context.js';
import { principalOf } from '../../identity/index.js';
import { addFeatureComment, commentNotFound, editFeatureComment, removeFeatureComment } from '../featureCommentCommands.js';
import { featureRequestNotFound } from '../featureRequestCommands.js';
import { presentFeatureComment } from '../featureRequestPresenter.js';
import { findFeatureComment, findFeatureRequest, listFeatureComments } from '../featureRequestQueries.js';
import { boardErrors, boardRoute, boardTags, postParams } from './boardRoute.js';

const commentParams = z.object({ id: z.string(), commentId: z.string() });

/** /v1/featurerequests/{id}/comments: the conversation under a post (docs/featureRequests.md). */
export const featureCommentRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const db = ctx.database.db;
  const answer = async (postId: string, commentId: string) => {
    const view = await findFeatureComment(db, postId, commentId);
    if (view === null) throw commentNotFound();
    return { data: presentFeatureComment(view) };
  };

  app.get(
    '/featurerequests/:id/comments',
    {
      schema: { tags: boardTags, summary: "A feature request's comments, oldest first", params: postParams, querystring: listQuerySchema, response: { 200: featureCommentListSchema, ...boardErrors } },
      ...boardRoute,
    },
    async (request) => {
      const post = await findFeatureRequest(db, principalOf(request).userId, request.params.id);
      if (post === null) throw featureRequestNotFound();
      const found = await listFeatureComments(db, post.row.id, request.query);
      const { offset, limit } = request.query;
      return { data: found.rows.map(presentFeatureComment), pagination: { totalCount: found.totalCount, offset, limit } };
    },
  );

  app.post(
    '/featurerequests/:id/comments',
    {
      schema: { tags: boardTags, summary: 'Comment on a feature request', params: postParams, body: featureCommentInputSchema, response: { 201: featureCommentResponseSchema, ...boardErrors } },
      ...boardRoute,
    },
    async (request, reply) => {
      const id = await addFeatureComment(db, principalOf(request).userId, request.params.id, request.body);
      return reply.code(201).send(await answer(request.params.id, id));
    },
  );

  app.put(
    '/featurerequests/:id/comments/:commentId',
    {
      schema: { tags: boardTags, summary: "Edit a comment (the deployment's operators)", params: commentParams, body: featureCommentInputSchema, response: { 200: featureCommentResponseSchema, ...boardErrors } },
      ...boardRoute,
    },
    async (request) => {
      const { id, commentId } = request.params;
      await editFeatureComment(db, principalOf(request).userId, id, commentId, request.body);
      return answer(id, commentId);
    },
  );

  app.delete(
    '/featurerequests/:id/comments/:commentId',
    {
      schema: { tags: boardTags, summary: "Remove a comment (the deployment's operators)", params: commentParams, response: { 204: z.null(), ...boardErrors } },
      ...boardRoute,
    },
    async (request, reply) => {
      await removeFeatureComment(db, principalOf(request).userId, request.params.id, request.params.commentId);
      return reply.code(204).send(null);
    },
  );
  return Promise.resolve();
};
