import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  accountUserListQuerySchema,
  accountUserListSchema,
  accountUserRecordSchema,
  createAccountUserSchema,
  errorBodySchema,
  updateAccountUserSchema,
} from '@parley/shared';
import { listAccountUsers } from '../../../commands/accountUsers.js';
import { changeRole, removeUser } from '../../../commands/memberManager.js';
import { inviteUser } from '../../../commands/userInviter.js';
import { membershipOf, principalOf } from '../../../http/auth.js';
import type { AppContext } from '../../../http/context.js';
import { presentAccountUser } from '../../../presenters/user.js';

const accountParams = z.object({ acc: z.uuid() });
// Any string: a malformed id is simply not found, like another account's.
const userParams = z.object({ acc: z.uuid(), id: z.string() });
const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

export const userRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  app.get(
    '/accounts/:acc/users',
    {
      schema: {
        tags: ['users'],
        summary: "The account's users and open invitations",
        params: accountParams,
        querystring: accountUserListQuerySchema,
        response: { 200: accountUserListSchema, ...errors },
      },
      config: { permission: 'account.view' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      const { offset, limit } = request.query;
      const { records, totalCount } = await listAccountUsers(ctx.database.db, accountId, { offset, limit });
      return { data: records.map(presentAccountUser), pagination: { totalCount, offset, limit } };
    },
  );

  app.post(
    '/accounts/:acc/users',
    {
      schema: {
        tags: ['users'],
        summary: 'Add a user: a Parley user joins at once, anyone else is invited by e-mail',
        params: accountParams,
        body: createAccountUserSchema,
        response: { 201: accountUserRecordSchema, ...errors },
      },
      config: { permission: 'users.manage' },
    },
    async (request, reply) => {
      const { accountId } = membershipOf(request);
      const principal = principalOf(request);
      const inviterId = principal.clientId === undefined ? principal.userId : null;
      const record = await inviteUser(ctx, { accountId, inviterId, user: request.body });
      return reply.code(201).send({ data: presentAccountUser(record) });
    },
  );

  app.put(
    '/accounts/:acc/users/:id',
    {
      schema: {
        tags: ['users'],
        summary: "Change a user's role (the e-mail cannot change)",
        params: userParams,
        body: updateAccountUserSchema,
        response: { 200: accountUserRecordSchema, ...errors },
      },
      config: { permission: 'users.manage' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      const record = await changeRole(ctx.database.db, accountId, request.params.id, request.body);
      return { data: presentAccountUser(record) };
    },
  );

  app.delete(
    '/accounts/:acc/users/:id',
    {
      schema: {
        tags: ['users'],
        summary: 'Remove a user from the account, or withdraw an invitation',
        params: userParams,
        response: { 204: z.null(), ...errors },
      },
      config: { permission: 'users.manage' },
    },
    async (request, reply) => {
      const { accountId } = membershipOf(request);
      await removeUser(ctx.database.db, accountId, request.params.id);
      return reply.code(204).send(null);
    },
  );
  return Promise.resolve();
};
