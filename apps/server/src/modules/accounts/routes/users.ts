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
import { listAccountUsers } from '../accountUsers.js';
import { changeRole, removeUser } from '../memberManager.js';
import { inviteUser, resendInvitation, ResendGate } from '../userInviter.js';
import { membershipOf, principalOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import { presentAccountUser } from '../userPresenter.js';

const accountParams = z.object({ acc: z.uuid() });
// Any string: a malformed id is simply not found, like another account's.
const userParams = z.object({ acc: z.uuid(), id: z.string() });
const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

/** Who adds or resends: the signed-in user, or null for an API client (which has no name to show). */
const actorOf = (principal: { userId: string; clientId?: string }): string | null =>
  principal.clientId === undefined ? principal.userId : null;

export const userRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const resends = new ResendGate();

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
      const record = await inviteUser(ctx, { accountId, inviterId: actorOf(principalOf(request)), user: request.body });
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

  app.post(
    '/accounts/:acc/users/:id/resend',
    {
      schema: {
        tags: ['users'],
        summary: "Send an open invitation's e-mail again (at most once a minute per invitation)",
        params: userParams,
        response: { 204: z.null(), ...errors, 429: errorBodySchema, 502: errorBodySchema },
      },
      config: { permission: 'users.manage' },
    },
    async (request, reply) => {
      const { accountId } = membershipOf(request);
      const input = { accountId, invitationId: request.params.id, senderId: actorOf(principalOf(request)) };
      await resendInvitation(ctx, input, resends);
      return reply.code(204).send(null);
    },
  );
  return Promise.resolve();
};
