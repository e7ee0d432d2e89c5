import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema, googleCalendarListSchema, INTEGRATION_NOT_CONNECTED_MESSAGE } from '@parley/shared';
import { membershipOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { findIntegration, sessionOf, type IntegrationDeps } from '../integrationStore.js';
import { ProviderError } from '../providerError.js';
import { listCalendars, type CalendarSummary } from './googleCalendarApi.js';
import { calendarTarget, googleCalendarConnector } from './googleCalendarConnector.js';

/** The connected Google account's calendars, for the page's calendar choice. */
export async function connectedCalendars(deps: IntegrationDeps, accountId: string): Promise<CalendarSummary[]> {
  const row = await findIntegration(deps.db, accountId, 'googlecalendar');
  if (row?.status !== 'connected') throw new AppError(409, 'conflict', INTEGRATION_NOT_CONNECTED_MESSAGE);
  try {
    return await listCalendars(calendarTarget(await sessionOf(deps, googleCalendarConnector, row)));
  } catch (error) {
    if (error instanceof ProviderError) throw new AppError(502, 'internal_error', `Google Calendar failed: ${error.message}`);
    throw error;
  }
}

export const googleCalendarRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const deps = { db: ctx.database.db, config: ctx.config };
  app.get(
    '/accounts/:acc/integrations/googlecalendar/calendars',
    {
      schema: {
        tags: ['integrations'],
        summary: "The connected Google account's calendars (Google's calendar list), to choose the one reminders are read from",
        params: z.object({ acc: z.uuid() }),
        response: { 200: googleCalendarListSchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema, 502: errorBodySchema },
      },
      config: { permission: 'account.view' },
    },
    async (request) => ({ data: await connectedCalendars(deps, membershipOf(request).accountId) }),
  );
  return Promise.resolve();
};
