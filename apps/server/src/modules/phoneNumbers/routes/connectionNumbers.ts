import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { addConnectionPhoneNumberSchema, errorBodySchema, phoneNumberRecordSchema } from '@parley/shared';
import { addConnectionNumber } from '../phoneNumberAdder.js';
import { membershipOf, principalOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import { presentPhoneNumber } from '../phoneNumberPresenter.js';

// Any string: a malformed id is simply not found, like another account's.
const connectionParams = z.object({ acc: z.uuid(), id: z.string() });
const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema, 422: errorBodySchema };

/**
 * Numbers of the account's own SMPP connection, added by an administrator on their word: SMPP sells no
 * numbers and places no verification calls (docs/carriers.md). The deployment's SMPP numbers are the
 * operator's to hand out, with `parley add-number`.
 */
export const connectionNumberRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const db = ctx.database.db;

  app.post(
    '/accounts/:acc/carriers/:id/phonenumbers',
    {
      schema: {
        tags: ['phone numbers'],
        summary: "Add a number of the account's own SMPP connection: active at once (not on a trial plan)",
        params: connectionParams,
        body: addConnectionPhoneNumberSchema,
        response: { 201: phoneNumberRecordSchema, ...errors },
      },
      config: { permission: 'phoneNumbers.manage' },
    },
    async (request, reply) => {
      const { accountId } = membershipOf(request);
      const principal = principalOf(request);
      const isClient = principal.clientId !== undefined;
      const row = await addConnectionNumber(db, {
        accountId,
        carrierSettingsId: request.params.id,
        number: request.body,
        configured: ctx.carriers.configured,
        voucher: { kind: 'member', userId: isClient ? null : principal.userId, clientId: principal.clientId ?? null },
      });
      return reply.code(201).send({ data: presentPhoneNumber(row) });
    },
  );

  return Promise.resolve();
};
