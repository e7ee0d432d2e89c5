import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  carrierConnectionListSchema,
  carrierConnectionRecordSchema,
  createCarrierConnectionSchema,
  errorBodySchema,
  listQuerySchema,
  updateCarrierConnectionSchema,
} from '@parley/shared';
import { membershipOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import type { SecretCipher } from '../../../platform/secrets/cipher.js';
import { canStoreSecrets } from '../../../platform/secrets/keyring.js';
import {
  cipherFor,
  connectionWithUse,
  createConnection,
  listConnections,
  removeConnection,
  updateConnection,
} from '../connectionWriter.js';
import { presentConnection } from '../connectionPresenter.js';

const accountParams = z.object({ acc: z.uuid() });
// Any string: a malformed id is simply not found, like another account's.
const connectionParams = z.object({ acc: z.uuid(), id: z.string() });
const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

/** Accounts' own SMPP and Twilio connections: administrators only (they hold the account's carrier credentials). */
export const carrierConnectionRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const db = ctx.database.db;
  const { publicUrl, secrets } = ctx.config;
  // Reading needs the key only to mask; without one (PostgreSQL, no SECRETS_KEY) the mask shows nothing.
  const readingCipher = (): Promise<SecretCipher | null> => (canStoreSecrets(secrets) ? cipherFor(secrets) : Promise.resolve(null));

  app.get(
    '/accounts/:acc/carriers',
    {
      schema: {
        tags: ['carriers'],
        summary: "The account's own carrier connections (SMPP, Twilio); secrets masked",
        params: accountParams,
        querystring: listQuerySchema,
        response: { 200: carrierConnectionListSchema, ...errors },
      },
      config: { permission: 'account.manage' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      const { offset, limit } = request.query;
      const { rows, totalCount } = await listConnections(db, accountId, { offset, limit });
      const cipher = rows.length === 0 ? null : await readingCipher();
      return {
        data: rows.map((row) => presentConnection(cipher, publicUrl, row)),
        pagination: { totalCount, offset, limit },
      };
    },
  );

  app.post(
    '/accounts/:acc/carriers',
    {
      schema: {
        tags: ['carriers'],
        summary: 'Add a carrier connection of the account; the secret is stored encrypted and never returned',
        params: accountParams,
        body: createCarrierConnectionSchema,
        response: { 201: carrierConnectionRecordSchema, ...errors },
      },
      config: { permission: 'account.manage' },
    },
    async (request, reply) => {
      const { accountId } = membershipOf(request);
      const cipher = await cipherFor(secrets);
      const created = await createConnection(db, cipher, accountId, request.body);
      return reply.code(201).send({ data: presentConnection(cipher, publicUrl, created) });
    },
  );

  app.get(
    '/accounts/:acc/carriers/:id',
    {
      schema: {
        tags: ['carriers'],
        summary: 'One carrier connection of the account; the secret masked',
        params: connectionParams,
        response: { 200: carrierConnectionRecordSchema, ...errors },
      },
      config: { permission: 'account.manage' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      const found = await connectionWithUse(db, accountId, request.params.id);
      return { data: presentConnection(await readingCipher(), publicUrl, found) };
    },
  );

  app.put(
    '/accounts/:acc/carriers/:id',
    {
      schema: {
        tags: ['carriers'],
        summary: 'Change a carrier connection (its carrier stays); an omitted secret keeps the stored one',
        params: connectionParams,
        body: updateCarrierConnectionSchema,
        response: { 200: carrierConnectionRecordSchema, ...errors },
      },
      config: { permission: 'account.manage' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      const { connection, cipher } = await updateConnection(db, () => cipherFor(secrets), accountId, request.params.id, request.body);
      return { data: presentConnection(cipher, publicUrl, connection) };
    },
  );

  app.delete(
    '/accounts/:acc/carriers/:id',
    {
      schema: {
        tags: ['carriers'],
        summary: 'Remove a carrier connection no phone number uses (409 while one does)',
        params: connectionParams,
        response: { 204: z.null(), ...errors },
      },
      config: { permission: 'account.manage' },
    },
    async (request, reply) => {
      const { accountId } = membershipOf(request);
      await removeConnection(db, accountId, request.params.id);
      return reply.code(204).send(null);
    },
  );
  return Promise.resolve();
};
