import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { accountAttributeListSchema, accountTagListSchema, errorBodySchema, tagListQuerySchema } from '@parley/shared';
import { listAccountTags, listAttributeNames } from '../queries.js';
import { membershipOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';

const accountParams = z.object({ acc: z.uuid() });
const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

/** The account's tags (for suggestions) and custom attribute names, both drawn from its contacts. */
export const tagAndAttributeRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  app.get(
    '/accounts/:acc/tags',
    {
      schema: {
        tags: ['contacts'],
        summary: "The account's tags, the most used first; prefix= for suggestions (10 by default)",
        params: accountParams,
        querystring: tagListQuerySchema,
        response: { 200: accountTagListSchema, ...errors },
      },
      config: { permission: 'account.view' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      return { data: await listAccountTags(ctx.database.db, accountId, request.query) };
    },
  );

  app.get(
    '/accounts/:acc/attributes',
    {
      schema: {
        tags: ['contacts'],
        summary: "The names of the account's custom contact attributes",
        params: accountParams,
        // Callers may send v=1; it changes nothing.
        querystring: z.object({ v: z.string().optional() }),
        response: { 200: accountAttributeListSchema, ...errors },
      },
      config: { permission: 'account.view' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      const names = await listAttributeNames(ctx.database.db, accountId);
      return { data: names.map((name) => ({ name })) };
    },
  );
  return Promise.resolve();
};
