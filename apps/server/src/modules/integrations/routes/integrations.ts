import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorBodySchema,
  integrationConnectBodySchema,
  integrationKinds,
  integrationListSchema,
  integrationPropertiesBodySchema,
  integrationResponseSchema,
  integrationSyncResponseSchema,
  oauthStartResponseSchema,
  type SyncKind,
} from '@parley/shared';
import { membershipOf, principalOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { connectIntegration, disconnectIntegration, requestSync, saveProperties } from '../integrationCommands.js';
import { readIntegration, readIntegrations } from '../integrationPresenter.js';
import { presentSync } from '../syncStore.js';
import { completeOAuth, startOAuth } from '../oauthCommands.js';
import { integrationSyncJob } from '../syncJob.js';
import { hubspotActionRoutes } from './hubspotActions.js';
import { intercomWebhookRoutes } from './intercomWebhook.js';
import { callRailWebhookRoutes } from './callRailWebhook.js';
import { aircallRoutes } from './aircallRoutes.js';
import { cradleWebhookRoutes } from './cradleWebhook.js';
import { twilioIntegrationRoutes } from '../twilio/twilioRoutes.js';
import { googleCalendarRoutes } from '../googlecalendar/googleCalendarRoutes.js';
import { pipedriveAction, pipedriveActionQuery } from '../pipedrive/pipedriveAction.js';

const accountParams = z.object({ acc: z.uuid() });
const kindParams = z.object({ acc: z.uuid(), integration: z.enum(integrationKinds, { message: 'Not an integration' }) });
const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };
const tags = ['integrations'];

/** A person's id for the records they start; an API client is no user (null). */
function actorOf(request: Parameters<typeof principalOf>[0]): string | null {
  const principal = principalOf(request);
  return principal.clientId === undefined ? principal.userId : null;
}

/** The integrations' routes (docs/integrations.md): everyone reads, administrators change (integrations.manage). */
export const integrationRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const deps = { db: ctx.database.db, config: ctx.config };
  const syncJob = integrationSyncJob({ ...deps, jobs: ctx.jobs, mailer: ctx.mailer });

  app.get(
    '/accounts/:acc/integrations',
    { schema: { tags, summary: 'Every integration of the product with its status in this account', params: accountParams, response: { 200: integrationListSchema, ...errors } }, config: { permission: 'account.view' } },
    async (request) => ({ data: await readIntegrations(ctx.database.db, membershipOf(request).accountId) }),
  );

  app.get(
    '/accounts/:acc/integrations/:integration',
    { schema: { tags, summary: 'One integration: status, properties, the latest syncs', params: kindParams, response: { 200: integrationResponseSchema, ...errors } }, config: { permission: 'account.view' } },
    async (request) => ({ success: true as const, data: await readIntegration(ctx.database.db, membershipOf(request).accountId, request.params.integration) }),
  );

  app.post(
    '/accounts/:acc/integrations/:integration/connect',
    {
      schema: { tags, summary: "Connects an API-key integration: the fields are tried against the provider before they are kept", params: kindParams, body: integrationConnectBodySchema, response: { 200: integrationResponseSchema, ...errors } },
      config: { permission: 'integrations.manage' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      await connectIntegration(deps, { accountId, userId: actorOf(request), kind: request.params.integration, body: request.body });
      return { success: true as const, data: await readIntegration(ctx.database.db, accountId, request.params.integration) };
    },
  );

  app.put(
    '/accounts/:acc/integrations/:integration/properties',
    {
      schema: { tags, summary: 'Changes properties: only the fields that changed are sent', params: kindParams, body: integrationPropertiesBodySchema, response: { 200: integrationResponseSchema, ...errors } },
      config: { permission: 'integrations.manage' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      await saveProperties(deps, accountId, request.params.integration, request.body);
      return { success: true as const, data: await readIntegration(ctx.database.db, accountId, request.params.integration) };
    },
  );

  const syncRoute = (path: string, syncKind: SyncKind, summary: string): void => {
    app.post(
      `/accounts/:acc/integrations/:integration/${path}`,
      { schema: { tags, summary, params: kindParams, response: { 200: integrationSyncResponseSchema, ...errors } }, config: { permission: 'integrations.manage' } },
      async (request) => {
        const { accountId } = membershipOf(request);
        const sync = await requestSync({ ...deps, jobs: ctx.jobs }, syncJob, { accountId, userId: actorOf(request), kind: request.params.integration, syncKind });
        return { success: true as const, data: presentSync(sync) };
      },
    );
  };
  syncRoute('synchronize', 'contacts', "Starts synchronizing the provider's contacts (409 while a sync runs)");
  syncRoute('synchronizetags', 'tags', "Starts synchronizing the provider's tags onto the synchronized contacts (409 while a sync runs)");

  app.delete(
    '/accounts/:acc/integrations/:integration/disconnect',
    { schema: { tags, summary: 'Disconnects: revokes where the provider allows, drops the credentials', params: kindParams, response: { 200: integrationResponseSchema, ...errors } }, config: { permission: 'integrations.manage' } },
    async (request) => {
      const { accountId } = membershipOf(request);
      await disconnectIntegration(deps, accountId, request.params.integration);
      return { success: true as const, data: await readIntegration(ctx.database.db, accountId, request.params.integration) };
    },
  );

  app.get(
    '/accounts/:acc/integrations/:integration/oauth/start',
    {
      schema: { tags, summary: "The provider's authorization page for an OAuth integration (state and PKCE bound to this user and account)", params: kindParams, response: { 200: oauthStartResponseSchema, ...errors } },
      config: { permission: 'integrations.manage' },
    },
    async (request) => {
      const userId = actorOf(request);
      if (userId === null) throw new AppError(403, 'forbidden', 'A person connects an integration through its provider; an API client cannot');
      return { success: true as const, data: { url: await startOAuth(deps, { accountId: membershipOf(request).accountId, userId, kind: request.params.integration }) } };
    },
  );

  app.get(
    '/integrations/:integration/oauth/callback',
    {
      schema: {
        tags,
        summary: "The provider's redirect back: keeps the tokens, then sends the browser to the integration's page (with ?error= when it failed)",
        params: z.object({ integration: z.enum(integrationKinds) }),
        querystring: z.object({ code: z.string().optional(), state: z.string().optional(), error: z.string().optional() }),
        response: { 302: z.null() },
      },
      config: { permission: 'public' },
    },
    async (request, reply) => reply.redirect(await completeOAuth(deps, request.params.integration, request.query), 302),
  );
  // A plugin of its own: it reads JSON as the raw text HubSpot signed.
  await app.register(hubspotActionRoutes, { ctx });
  await app.register(intercomWebhookRoutes, { ctx });
  await app.register(callRailWebhookRoutes, { ctx });
  await app.register(aircallRoutes, { ctx });
  await app.register(cradleWebhookRoutes, { ctx });
  await app.register(twilioIntegrationRoutes, { ctx });
  await app.register(googleCalendarRoutes, { ctx });

  app.get(
    '/integrations/pipedrive/action',
    {
      schema: {
        tags,
        summary: "Pipedrive's app extension action (a JWT signed with the app's secret): sends the browser to a new message to the selected person's mobile",
        querystring: pipedriveActionQuery,
        response: { 302: z.null(), 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema },
      },
      config: { permission: 'public' },
    },
    async (request, reply) => reply.redirect(await pipedriveAction(deps, request.query), 302),
  );
};
