import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  carrierLookupResponseSchema,
  contractNumberLookupQuerySchema,
  errorBodySchema,
  lookupSettingsSchema,
  nameLookupResponseSchema,
  NUMBER_LOOKUP_CACHE_DAYS,
  NUMBER_LOOKUP_PRICES,
  numberLookupQuerySchema,
} from '@parley/shared';
import { membershipOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import { lookUpCarrier, lookUpName, type LookupDeps } from '../numberLookups.js';

const accountParams = z.object({ acc: z.uuid() });
const errors = { 400: errorBodySchema, 402: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 502: errorBodySchema };

const carrierDescription =
  "The number's line type (mobile, landline, VoIP, toll-free ...) and carrier. Without a lookup provider the answer " +
  "comes from the number's range (free; a ported number shows its range's first carrier); with one, the provider " +
  `answers, the answer is kept ${String(NUMBER_LOOKUP_CACHE_DAYS)} days and the account pays ${NUMBER_LOOKUP_PRICES.carrier} USD once per answer (402 when it cannot).`;
const nameDescription =
  'The caller name registered for the number (null: none known) and the first and last names it may stand for. ' +
  `Needs a lookup provider for real numbers; ${NUMBER_LOOKUP_PRICES.name} USD once per answer, kept ${String(NUMBER_LOOKUP_CACHE_DAYS)} days.`;

/**
 * Number lookups (docs/tools.md): the account's routes, which the web app calls, and the hosted product's
 * `/v1/tools/...` paths, whose account is the token's (or the one `accountId` names).
 */
export const lookupRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const tags = ['tools'];
  const deps = (): LookupDeps => ({ db: ctx.database.db, lookups: ctx.config.lookups });

  app.get(
    '/accounts/:acc/tools/lookups',
    {
      schema: {
        tags,
        summary: 'Who answers number lookups here, and what each costs',
        params: accountParams,
        response: { 200: z.object({ data: lookupSettingsSchema }), ...errors },
      },
      config: { permission: 'account.view' },
    },
    () => ({
      data: { provider: ctx.config.lookups.provider, prices: { ...NUMBER_LOOKUP_PRICES }, cacheDays: NUMBER_LOOKUP_CACHE_DAYS },
    }),
  );

  app.get(
    '/accounts/:acc/tools/carrierlookup',
    {
      schema: { tags, summary: 'Look up a number’s carrier and line type', description: carrierDescription, params: accountParams, querystring: numberLookupQuerySchema, response: { 200: carrierLookupResponseSchema, ...errors } },
      config: { permission: 'tools.lookup' },
    },
    async (request) => ({ success: true as const, data: await lookUpCarrier(deps(), membershipOf(request).accountId, request.query) }),
  );

  app.get(
    '/accounts/:acc/tools/namelookup',
    {
      schema: { tags, summary: 'Look up the caller name registered for a number', description: nameDescription, params: accountParams, querystring: numberLookupQuerySchema, response: { 200: nameLookupResponseSchema, ...errors } },
      config: { permission: 'tools.lookup' },
    },
    async (request) => ({ success: true as const, data: await lookUpName(deps(), membershipOf(request).accountId, request.query) }),
  );

  app.get(
    '/tools/carrierlookup',
    {
      schema: { tags, summary: "Carrier lookup: the hosted API's path, in the token's account", description: carrierDescription, querystring: contractNumberLookupQuerySchema, response: { 200: carrierLookupResponseSchema, ...errors } },
      config: { permission: 'tools.lookup', accountFrom: 'token' },
    },
    async (request) => ({ success: true as const, data: await lookUpCarrier(deps(), membershipOf(request).accountId, request.query) }),
  );

  app.get(
    '/tools/namelookup',
    {
      schema: { tags, summary: "Name lookup: the hosted API's path, in the token's account", description: nameDescription, querystring: contractNumberLookupQuerySchema, response: { 200: nameLookupResponseSchema, ...errors } },
      config: { permission: 'tools.lookup', accountFrom: 'token' },
    },
    async (request) => ({ success: true as const, data: await lookUpName(deps(), membershipOf(request).accountId, request.query) }),
  );
  return Promise.resolve();
};
