import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  addListContactsResultSchema,
  addListContactsSchema,
  errorBodySchema,
  listMemberListSchema,
  listMemberQuerySchema,
  listMemberResponseSchema,
  listPageSchema,
  listRecordResponseSchema,
  listsQuerySchema,
  saveListSchema,
  updateListMemberSchema,
} from '@parley/shared';
import {
  addContactsToList,
  createList,
  removeContactFromList,
  removeList,
  renameList,
  setMemberConsent,
} from '../listManager.js';
import { membershipOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import { notFound } from '../../../platform/errors.js';
import { findList, listLists, listMembersOf } from '../queries.js';
import { presentList, presentListMember } from '../listPresenter.js';

const accountParams = z.object({ acc: z.uuid() });
// Any string: a malformed id is simply not found, like another account's.
const listParams = z.object({ acc: z.uuid(), listId: z.string() });
const memberParams = z.object({ acc: z.uuid(), listId: z.string(), contactId: z.string() });
const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };
const LIST = 'The list';

export const listRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const db = ctx.database.db;

  app.get(
    '/accounts/:acc/lists',
    {
      schema: {
        tags: ['lists'],
        summary: "The account's lists by name, each with its member count",
        params: accountParams,
        querystring: listsQuerySchema,
        response: { 200: listPageSchema, ...errors },
      },
      config: { permission: 'account.view' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      const { offset, limit } = request.query;
      const { rows, totalCount } = await listLists(db, accountId, { offset, limit });
      return { data: rows.map(presentList), pagination: { totalCount, offset, limit } };
    },
  );

  app.post(
    '/accounts/:acc/lists',
    {
      schema: {
        tags: ['lists'],
        summary: 'Create a list (the name is unique in the account, ignoring case)',
        params: accountParams,
        body: saveListSchema,
        response: { 201: listRecordResponseSchema, ...errors },
      },
      config: { permission: 'lists.write' },
    },
    async (request, reply) => {
      const { accountId } = membershipOf(request);
      const list = await createList(db, accountId, request.body);
      return reply.code(201).send({ data: presentList(list) });
    },
  );

  app.get(
    '/accounts/:acc/lists/:listId',
    {
      schema: { tags: ['lists'], summary: 'One list', params: listParams, response: { 200: listRecordResponseSchema, ...errors } },
      config: { permission: 'account.view' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      const list = await findList(db, accountId, request.params.listId);
      if (!list) throw notFound(LIST);
      return { data: presentList(list) };
    },
  );

  app.put(
    '/accounts/:acc/lists/:listId',
    {
      schema: {
        tags: ['lists'],
        summary: 'Rename a list',
        params: listParams,
        body: saveListSchema,
        response: { 200: listRecordResponseSchema, ...errors },
      },
      config: { permission: 'lists.write' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      return { data: presentList(await renameList(db, accountId, request.params.listId, request.body)) };
    },
  );

  app.delete(
    '/accounts/:acc/lists/:listId',
    {
      schema: {
        tags: ['lists'],
        summary: 'Remove a list and its memberships (the contacts stay)',
        params: listParams,
        response: { 204: z.null(), ...errors },
      },
      config: { permission: 'lists.write' },
    },
    async (request, reply) => {
      const { accountId } = membershipOf(request);
      await removeList(db, accountId, request.params.listId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/accounts/:acc/lists/:listId/contacts',
    {
      schema: {
        tags: ['lists'],
        summary: 'The members of a list with their status and opt-in and opt-out dates, newest first',
        params: listParams,
        querystring: listMemberQuerySchema,
        response: { 200: listMemberListSchema, ...errors },
      },
      config: { permission: 'account.view' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      const list = await findList(db, accountId, request.params.listId);
      if (!list) throw notFound(LIST);
      const { rows, totalCount } = await listMembersOf(db, accountId, list.list.id, request.query);
      const { offset, limit } = request.query;
      return { data: rows.map(presentListMember), pagination: { totalCount, offset, limit } };
    },
  );

  app.post(
    '/accounts/:acc/lists/:listId/contacts',
    {
      schema: {
        tags: ['lists'],
        summary: 'Add contacts to a list, opted in now when optIn is true (all or nothing)',
        params: listParams,
        body: addListContactsSchema,
        response: { 200: addListContactsResultSchema, ...errors },
      },
      config: { permission: 'lists.write' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      return { data: await addContactsToList(db, accountId, request.params.listId, request.body) };
    },
  );

  app.put(
    '/accounts/:acc/lists/:listId/contacts/:contactId',
    {
      schema: {
        tags: ['lists'],
        summary: "Opt a member in or out of the list now (the date is recorded)",
        params: memberParams,
        body: updateListMemberSchema,
        response: { 200: listMemberResponseSchema, ...errors },
      },
      config: { permission: 'lists.write' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      const { listId, contactId } = request.params;
      return { data: presentListMember(await setMemberConsent(db, accountId, listId, contactId, request.body)) };
    },
  );

  app.delete(
    '/accounts/:acc/lists/:listId/contacts/:contactId',
    {
      schema: {
        tags: ['lists'],
        summary: 'Take a contact off a list (the contact stays)',
        params: memberParams,
        response: { 204: z.null(), ...errors },
      },
      config: { permission: 'lists.write' },
    },
    async (request, reply) => {
      const { accountId } = membershipOf(request);
      await removeContactFromList(db, accountId, request.params.listId, request.params.contactId);
      return reply.code(204).send(null);
    },
  );
  return Promise.resolve();
};
