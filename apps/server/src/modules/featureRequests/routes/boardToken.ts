import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema, featureBoardTokenResponseSchema } from '@parley/shared';
import type { AppContext } from '../../../platform/context.js';
import { principalOf } from '../../identity/index.js';
import { issueBoardToken } from '../boardToken.js';
import { boardErrors, boardRoute, boardTags } from './boardRoute.js';

/** POST /v1/featurerequests/token: the board's sign-on token (docs/featureRequests.md, "The sign-on token"). */
export const boardTokenRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  app.post(
    '/featurerequests/token',
    {
      schema: {
        tags: boardTags,
        summary: 'A short-lived signed sign-on token for the feature board (HS256: sub, email, name, operator, board, iat, exp), and the external board to embed when one is set',
        response: { 200: featureBoardTokenResponseSchema, ...boardErrors, 409: errorBodySchema },
      },
      ...boardRoute,
    },
    async (request) => ({ data: await issueBoardToken(ctx.database.db, ctx.config, principalOf(request).userId) }),
  );
  return Promise.resolve();
};
