import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { aircallDirectoryResponseSchema, aircallLinesBodySchema, aircallRefreshResponseSchema, errorBodySchema } from '@parley/shared';
import type { AppContext } from '../../../platform/context.js';
import { membershipOf } from '../../identity/index.js';
import { readDirectory, setLineTargets } from '../aircall/aircallDirectory.js';
import { refreshAirCall, requireAirCall } from '../aircall/aircallRefresh.js';
import { receiveAirCallWebhook } from '../aircall/aircallWebhook.js';

const accountParams = z.object({ acc: z.uuid() });
const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };
const tags = ['integrations'];

const webhookAnswerSchema = z
  .object({
    call: z.object({ id: z.uuid() }).nullable(),
    textBack: z.enum(['sent', 'notAsked', 'alreadyDone', 'refused']),
    insightCard: z.enum(['posted', 'failed', 'notAsked']),
  })
  .meta({ id: 'AirCallWebhookAnswer' });

/** AirCall's own routes (docs/integrations.md, "AirCall"): refresh, the numbers' mapping, and AirCall's webhook. */
export const aircallRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const deps = { db: ctx.database.db, config: ctx.config };

  app.get(
    '/accounts/:acc/integrations/aircall/refresh',
    {
      schema: {
        tags,
        summary: "Reads AirCall's numbers and users again (every page) and makes sure its webhook is there; `success` false with AirCall's reason when it failed",
        params: accountParams,
        response: { 200: aircallRefreshResponseSchema, ...errors },
      },
      config: { permission: 'integrations.manage' },
    },
    async (request) => refreshAirCall(deps, membershipOf(request).accountId),
  );

  app.get(
    '/accounts/:acc/integrations/aircall/lines',
    {
      schema: { tags, summary: "AirCall's numbers, where each one's calls go, and AirCall's users, as the last refresh found them", params: accountParams, response: { 200: aircallDirectoryResponseSchema, ...errors } },
      config: { permission: 'account.view' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      await requireAirCall(deps, accountId);
      return { data: await readDirectory(ctx.database.db, accountId) };
    },
  );

  app.put(
    '/accounts/:acc/integrations/aircall/lines',
    {
      schema: {
        tags,
        summary: "Chooses where AirCall numbers' calls go: one of the account's numbers or a group (both null: the number with the same digits)",
        params: accountParams,
        body: aircallLinesBodySchema,
        response: { 200: aircallDirectoryResponseSchema, ...errors },
      },
      config: { permission: 'integrations.manage' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      await requireAirCall(deps, accountId);
      await setLineTargets(ctx.database.db, accountId, request.body);
      return { data: await readDirectory(ctx.database.db, accountId) };
    },
  );

  app.post(
    '/integrations/aircall/webhook/:key',
    {
      schema: {
        tags,
        summary: "AirCall's webhook: files the call in the caller's conversation and texts back a missed call (the body's token must be this webhook's)",
        params: z.object({ key: z.string() }),
        body: z.unknown(),
        response: { 200: webhookAnswerSchema, 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema },
      },
      config: { permission: 'public' },
    },
    async (request) => receiveAirCallWebhook(deps, { key: request.params.key, body: request.body }),
  );
  return Promise.resolve();
};
