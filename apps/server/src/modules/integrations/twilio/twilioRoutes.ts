import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  carrierConnectionRecordSchema,
  carrierConnectionSchema,
  connectTwilioSchema,
  errorBodySchema,
  importedTwilioNumbersSchema,
  importTwilioNumbersSchema,
  twilioAccountNumberPageSchema,
  twilioNumbersQuerySchema,
} from '@parley/shared';
import { membershipOf, principalOf } from '../../identity/index.js';
import { presentPhoneNumber } from '../../phoneNumbers/index.js';
import type { AppContext } from '../../../platform/context.js';
import { connectTwilio, disconnectTwilio, listTwilioConnections } from './twilioCommands.js';
import { importTwilioNumbers, listTwilioAccountNumbers } from './twilioNumbers.js';

const accountParams = z.object({ acc: z.uuid() });
// Every string: a malformed id is simply not found, like another account's.
const connectionParams = z.object({ acc: z.uuid(), id: z.string() });
const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema, 502: errorBodySchema };
const tags = ['integrations'];
const base = '/accounts/:acc/integrations/twilio/connections';
// The connections hold the account's carrier credentials: administrators, as for the carriers API (docs/permissions.md).
const config = { permission: 'account.manage' } as const;

/** The Twilio integration page (docs/integrations.md, "Twilio"): the account's own Twilio connections and their numbers. */
export const twilioIntegrationRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const deps = { db: ctx.database.db, config: ctx.config };

  app.get(
    base,
    { schema: { tags, summary: "The account's Twilio connections, oldest first; secrets masked", params: accountParams, response: { 200: z.object({ data: z.array(carrierConnectionSchema) }), ...errors } }, config },
    async (request) => ({ data: await listTwilioConnections(deps, membershipOf(request).accountId) }),
  );

  app.post(
    base,
    { schema: { tags, summary: 'Connects a Twilio account: the SID and auth token are checked with Twilio before they are kept', params: accountParams, body: connectTwilioSchema, response: { 201: carrierConnectionRecordSchema, ...errors } }, config },
    async (request, reply) => reply.code(201).send({ data: await connectTwilio(deps, membershipOf(request).accountId, request.body) }),
  );

  app.get(
    `${base}/:id/numbers`,
    { schema: { tags, summary: "A page of the Twilio account's phone numbers, and which are imported", params: connectionParams, querystring: twilioNumbersQuerySchema, response: { 200: twilioAccountNumberPageSchema, ...errors } }, config },
    async (request) => listTwilioAccountNumbers(deps, membershipOf(request).accountId, request.params.id, request.query.cursor ?? null),
  );

  app.post(
    `${base}/:id/numbers`,
    { schema: { tags, summary: "Imports numbers of the Twilio account: their SMS webhook set to the connection's URL", params: connectionParams, body: importTwilioNumbersSchema, response: { 201: importedTwilioNumbersSchema, ...errors } }, config },
    async (request, reply) => {
      const principal = principalOf(request);
      const rows = await importTwilioNumbers(deps, {
        accountId: membershipOf(request).accountId,
        connectionId: request.params.id,
        sids: request.body.sids,
        actorUserId: principal.clientId === undefined ? principal.userId : null,
      });
      return reply.code(201).send({ data: rows.map(presentPhoneNumber) });
    },
  );

  app.delete(
    `${base}/:id`,
    { schema: { tags, summary: "Disconnects a Twilio account: its numbers are released (messages kept), their webhooks unset, the connection removed", params: connectionParams, response: { 204: z.null(), ...errors } }, config },
    async (request, reply) => {
      await disconnectTwilio(deps, membershipOf(request).accountId, request.params.id);
      return reply.code(204).send(null);
    },
  );
  return Promise.resolve();
};
