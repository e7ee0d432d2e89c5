import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  autoResponderListQuerySchema,
  autoResponderListSchema,
  autoResponderRecordSchema,
  errorBodySchema,
  saveAutoResponderSchema,
} from '@parley/shared';
import {
  AUTO_RESPONDER_NOT_FOUND,
  createAutoResponder,
  findAutoResponder,
  listAutoResponders,
  removeAutoResponder,
  updateAutoResponder,
} from '../autoResponderManager.js';
import { membershipOf, principalOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import { notFound } from '../../../platform/errors.js';
import { patternProblem } from '../../messaging/index.js';
import { presentAutoResponder } from '../autoResponderPresenter.js';

const accountParams = z.object({ acc: z.uuid() });
// Any string: a malformed id is simply not found, like another account's.
const responderParams = z.object({ acc: z.uuid(), id: z.string() });
const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

/**
 * The shared schema plus the check only the server can make: an Advanced match must compile as RE2
 * (re2js stays out of the web bundle). Its message lands on `match` like any validation message.
 */
const saveBody = saveAutoResponderSchema.superRefine((value, ctx) => {
  if (!value.advanced) return;
  const problem = patternProblem(value.match);
  if (problem !== null) ctx.addIssue({ code: 'custom', path: ['match'], message: problem });
});

export const autoResponderRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const db = ctx.database.db;
  const tags = ['auto responders'];

  app.get(
    '/accounts/:acc/autoresponders',
    {
      schema: {
        tags,
        summary: "The account's auto responders, oldest first (the order inbound messages try them in)",
        params: accountParams,
        querystring: autoResponderListQuerySchema,
        response: { 200: autoResponderListSchema, ...errors },
      },
      config: { permission: 'account.view' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      const { offset, limit } = request.query;
      const { rows, totalCount } = await listAutoResponders(db, accountId, { offset, limit });
      return { data: rows.map(presentAutoResponder), pagination: { totalCount, offset, limit } };
    },
  );

  app.post(
    '/accounts/:acc/autoresponders',
    {
      schema: {
        tags,
        summary: 'Add an auto responder (not on a trial plan): a Simple word or phrase, or an Advanced RE2 expression',
        params: accountParams,
        body: saveBody,
        response: { 201: autoResponderRecordSchema, ...errors },
      },
      config: { permission: 'autoResponders.write' },
    },
    async (request, reply) => {
      const { accountId } = membershipOf(request);
      const principal = principalOf(request);
      const userId = principal.clientId === undefined ? principal.userId : null;
      const row = await createAutoResponder(db, accountId, userId, request.body);
      return reply.code(201).send({ data: presentAutoResponder(row) });
    },
  );

  app.get(
    '/accounts/:acc/autoresponders/:id',
    {
      schema: { tags, summary: 'One auto responder', params: responderParams, response: { 200: autoResponderRecordSchema, ...errors } },
      config: { permission: 'account.view' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      const row = await findAutoResponder(db, accountId, request.params.id);
      if (!row) throw notFound(AUTO_RESPONDER_NOT_FOUND);
      return { data: presentAutoResponder(row) };
    },
  );

  app.put(
    '/accounts/:acc/autoresponders/:id',
    {
      schema: {
        tags,
        summary: "Replace an auto responder's match, response and kind (it keeps its place in the order)",
        params: responderParams,
        body: saveBody,
        response: { 200: autoResponderRecordSchema, ...errors },
      },
      config: { permission: 'autoResponders.write' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      return { data: presentAutoResponder(await updateAutoResponder(db, accountId, request.params.id, request.body)) };
    },
  );

  app.delete(
    '/accounts/:acc/autoresponders/:id',
    {
      schema: { tags, summary: 'Remove an auto responder', params: responderParams, response: { 204: z.null(), ...errors } },
      config: { permission: 'autoResponders.write' },
    },
    async (request, reply) => {
      const { accountId } = membershipOf(request);
      await removeAutoResponder(db, accountId, request.params.id);
      return reply.code(204).send(null);
    },
  );
  return Promise.resolve();
};
