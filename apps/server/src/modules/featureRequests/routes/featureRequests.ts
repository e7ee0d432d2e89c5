import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  featureRequestListQuerySchema,
  featureRequestListSchema,
  featureRequestResponseSchema,
  featureRequestUpdateSchema,
  newFeatureRequestSchema,
} from '@parley/shared';
import type { AppContext } from '../../../platform/context.js';
import { principalOf } from '../../identity/index.js';
import {
  featureRequestNotFound,
  postFeatureRequest,
  removeFeatureRequest,
  unvoteFeatureRequest,
  updateFeatureRequest,
  voteForFeatureRequest,
} from '../featureRequestCommands.js';
import { presentFeatureRequest } from '../featureRequestPresenter.js';
import { findFeatureRequest, listFeatureRequests } from '../featureRequestQueries.js';
import { boardErrors, boardRoute, boardTags, postParams } from './boardRoute.js';

/** /v1/featurerequests: the deployment's feature-request board (docs/featureRequests.md). */
export const featureRequestRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const db = ctx.database.db;
  const answer = async (userId: string, id: string) => {
    const view = await findFeatureRequest(db, userId, id);
    if (view === null) throw featureRequestNotFound();
    return { data: presentFeatureRequest(view) };
  };

  app.get(
    '/featurerequests',
    {
      schema: {
        tags: boardTags,
        summary: 'The board: by votes (the default) or recency, filtered by status and by words in the title or text',
        querystring: featureRequestListQuerySchema,
        response: { 200: featureRequestListSchema, ...boardErrors },
      },
      ...boardRoute,
    },
    async (request) => {
      const found = await listFeatureRequests(db, principalOf(request).userId, request.query);
      const { offset, limit } = request.query;
      return { data: found.rows.map(presentFeatureRequest), pagination: { totalCount: found.totalCount, offset, limit } };
    },
  );

  app.post(
    '/featurerequests',
    {
      schema: { tags: boardTags, summary: 'Post a feature request (open)', body: newFeatureRequestSchema, response: { 201: featureRequestResponseSchema, ...boardErrors } },
      ...boardRoute,
    },
    async (request, reply) => {
      const { userId } = principalOf(request);
      const id = await postFeatureRequest(db, userId, request.body);
      return reply.code(201).send(await answer(userId, id));
    },
  );

  app.get(
    '/featurerequests/:id',
    { schema: { tags: boardTags, summary: 'One feature request', params: postParams, response: { 200: featureRequestResponseSchema, ...boardErrors } }, ...boardRoute },
    (request) => answer(principalOf(request).userId, request.params.id),
  );

  app.put(
    '/featurerequests/:id',
    {
      schema: {
        tags: boardTags,
        summary: "Change a feature request's title, text or status (the deployment's operators)",
        params: postParams,
        body: featureRequestUpdateSchema,
        response: { 200: featureRequestResponseSchema, ...boardErrors },
      },
      ...boardRoute,
    },
    async (request) => {
      const { userId } = principalOf(request);
      await updateFeatureRequest(db, userId, request.params.id, request.body);
      return answer(userId, request.params.id);
    },
  );

  app.delete(
    '/featurerequests/:id',
    {
      schema: { tags: boardTags, summary: "Remove a feature request with its votes and comments (the deployment's operators)", params: postParams, response: { 204: z.null(), ...boardErrors } },
      ...boardRoute,
    },
    async (request, reply) => {
      await removeFeatureRequest(db, principalOf(request).userId, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/featurerequests/:id/vote',
    {
      schema: { tags: boardTags, summary: 'Vote for a feature request (once per person: voting again changes nothing)', params: postParams, response: { 200: featureRequestResponseSchema, ...boardErrors } },
      ...boardRoute,
    },
    async (request) => {
      const { userId } = principalOf(request);
      await voteForFeatureRequest(db, userId, request.params.id);
      return answer(userId, request.params.id);
    },
  );

  app.delete(
    '/featurerequests/:id/vote',
    {
      schema: { tags: boardTags, summary: 'Take back your vote', params: postParams, response: { 200: featureRequestResponseSchema, ...boardErrors } },
      ...boardRoute,
    },
    async (request) => {
      const { userId } = principalOf(request);
      await unvoteFeatureRequest(db, userId, request.params.id);
      return answer(userId, request.params.id);
    },
  );
  return Promise.resolve();
};
