import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiCredentialsRecordSchema, errorBodySchema, issuedApiCredentialsSchema } from '@parley/shared';
import { findCredentials, renewCredentials, requestCredentials } from '../credentialsIssuer.js';
import { membershipOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import { presentIssuedCredentials, presentStoredCredentials } from '../credentialsPresenter.js';

const params = z.object({ acc: z.uuid() });
const errors = { 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

export const credentialsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  app.get(
    '/accounts/:acc/credentials',
    {
      schema: {
        tags: ['credentials'],
        summary: "The account's API credentials, secret masked (null before any are requested)",
        params,
        response: { 200: apiCredentialsRecordSchema, ...errors },
      },
      config: { permission: 'apiCredentials.manage' },
    },
    async (request) => {
      const row = await findCredentials(ctx.database.db, membershipOf(request).accountId);
      return { data: row === null ? null : presentStoredCredentials(row) };
    },
  );

  app.post(
    '/accounts/:acc/credentials',
    {
      schema: {
        tags: ['credentials'],
        summary: 'Request API credentials; the answer is the only one that shows the secret',
        params,
        response: { 201: issuedApiCredentialsSchema, ...errors },
      },
      config: { permission: 'apiCredentials.manage' },
    },
    async (request, reply) => {
      const issued = await requestCredentials(ctx.database.db, membershipOf(request).accountId);
      return reply.code(201).send({ data: presentIssuedCredentials(issued) });
    },
  );

  app.put(
    '/accounts/:acc/credentials',
    {
      schema: {
        tags: ['credentials'],
        summary: 'Renew the secret: the old one stops working at once; the answer shows the new one',
        params,
        response: { 200: issuedApiCredentialsSchema, ...errors },
      },
      config: { permission: 'apiCredentials.manage' },
    },
    async (request) => {
      const issued = await renewCredentials(ctx.database.db, membershipOf(request).accountId);
      return { data: presentIssuedCredentials(issued) };
    },
  );
  return Promise.resolve();
};
