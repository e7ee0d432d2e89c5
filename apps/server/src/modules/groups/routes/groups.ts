import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema, groupListQuerySchema, groupListSchema, groupRecordSchema, saveGroupSchema } from '@parley/shared';
import { createGroup, removeGroup, updateGroup } from '../groupManager.js';
import { findGroup, listGroups } from '../queries.js';
import { membershipOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import { notFound } from '../../../platform/errors.js';
import { presentGroup } from '../groupPresenter.js';

const accountParams = z.object({ acc: z.uuid() });
// Any string: a malformed id is simply not found, like another account's.
const groupParams = z.object({ acc: z.uuid(), id: z.string() });
const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

export const groupRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const db = ctx.database.db;

  app.get(
    '/accounts/:acc/groups',
    {
      schema: {
        tags: ['groups'],
        summary: "The account's groups by name, with their tags, phone numbers and users",
        params: accountParams,
        querystring: groupListQuerySchema,
        response: { 200: groupListSchema, ...errors },
      },
      // Everyone reads groups: the assign-group action of conversations lists them (docs/permissions.md).
      config: { permission: 'account.view' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      const { offset, limit } = request.query;
      const { rows, totalCount } = await listGroups(db, accountId, { offset, limit });
      return { data: rows.map(presentGroup), pagination: { totalCount, offset, limit } };
    },
  );

  app.post(
    '/accounts/:acc/groups',
    {
      schema: {
        tags: ['groups'],
        summary: 'Create a group (name required and unique; users must be users of the account)',
        params: accountParams,
        body: saveGroupSchema,
        response: { 201: groupRecordSchema, ...errors },
      },
      config: { permission: 'groups.manage' },
    },
    async (request, reply) => {
      const { accountId } = membershipOf(request);
      return reply.code(201).send({ data: presentGroup(await createGroup(db, accountId, request.body)) });
    },
  );

  app.get(
    '/accounts/:acc/groups/:id',
    {
      schema: { tags: ['groups'], summary: 'One group', params: groupParams, response: { 200: groupRecordSchema, ...errors } },
      config: { permission: 'account.view' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      const group = await findGroup(db, accountId, request.params.id);
      if (!group) throw notFound('The group');
      return { data: presentGroup(group) };
    },
  );

  app.put(
    '/accounts/:acc/groups/:id',
    {
      schema: {
        tags: ['groups'],
        summary: 'Change a group: the name, and each of tags, phone numbers and users that is sent',
        params: groupParams,
        body: saveGroupSchema,
        response: { 200: groupRecordSchema, ...errors },
      },
      config: { permission: 'groups.manage' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      return { data: presentGroup(await updateGroup(db, accountId, request.params.id, request.body)) };
    },
  );

  app.delete(
    '/accounts/:acc/groups/:id',
    {
      schema: { tags: ['groups'], summary: 'Remove a group', params: groupParams, response: { 204: z.null(), ...errors } },
      config: { permission: 'groups.manage' },
    },
    async (request, reply) => {
      const { accountId } = membershipOf(request);
      await removeGroup(db, accountId, request.params.id);
      return reply.code(204).send(null);
    },
  );
  return Promise.resolve();
};
