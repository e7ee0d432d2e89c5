import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema, numberTypeCheckResponseSchema, startNumberTypeCheckSchema } from '@parley/shared';
import { findNumberTypeCheck, startNumberTypeCheck } from '../numberTypeChecks.js';
import { membershipOf, principalOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';

/** The person who asked; an API client's check is its own (no user). */
const userIdOf = (principal: { userId: string; clientId?: string | undefined }): string | null => (principal.clientId === undefined ? principal.userId : null);

const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

/** "Check number types" on selected contacts, and how far a check has come (docs/decisions.md, "Check number types"). */
export const numberTypeCheckRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  app.post(
    '/accounts/:acc/contacts/numbertypes',
    {
      schema: {
        tags: ['contacts'],
        summary: "Check the number types of selected contacts, as a job (1 cent per contact never checked before)",
        params: z.object({ acc: z.uuid() }),
        body: startNumberTypeCheckSchema,
        response: { 202: numberTypeCheckResponseSchema, ...errors },
      },
      config: { permission: 'contacts.write' },
    },
    async (request, reply) => {
      const { accountId } = membershipOf(request);
      const check = await startNumberTypeCheck(ctx.database, ctx.jobs, { accountId, userId: userIdOf(principalOf(request)), ids: request.body.ids });
      return reply.code(202).send({ data: check });
    },
  );

  app.get(
    '/accounts/:acc/contacts/numbertypes/:id',
    {
      schema: {
        tags: ['contacts'],
        summary: 'A number type check: its status and counts',
        // Every string is taken: a malformed id is simply not found, like another account's.
        params: z.object({ acc: z.uuid(), id: z.string() }),
        response: { 200: numberTypeCheckResponseSchema, ...errors },
      },
      config: { permission: 'account.view' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      return { data: await findNumberTypeCheck(ctx.database.db, accountId, request.params.id) };
    },
  );
  return Promise.resolve();
};
