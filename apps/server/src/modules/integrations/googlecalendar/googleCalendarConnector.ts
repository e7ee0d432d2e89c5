import { GOOGLE_CALENDAR_DEFAULT_PROPERTIES, googleCalendarPropertiesSchema } from '@parley/shared';
import type { Config } from '../../../platform/config.js';
import type { Connector, ConnectorSession } from '../connector.js';
import { listCalendars } from './googleCalendarApi.js';
import type { CalendarTarget } from './googleCalendarClient.js';
import { googleAuthorizeUrl, googleExchangeCode, googleRefresh, googleRevoke } from './googleOAuth.js';

/*
 * Google Calendar (docs/integrations.md, "Google Calendar"): an OAuth connection whose calendars are read for
 * appointment reminders. No contacts sync and no message records: the reminders are its work
 * (calendarReminderRun.ts), with the declines of C or CANCEL replies (calendarCancel*.ts).
 */

export function calendarTarget(session: Pick<ConnectorSession, 'credentials' | 'fetch' | 'config'>): CalendarTarget {
  return { config: session.config.integrations.googleCalendar, accessToken: session.credentials.accessToken ?? '', fetch: session.fetch };
}

/** The hosts of the configured Google endpoints, let through the guarded fetcher (a local stand-in in tests). */
const hostsOf = (config: Config): string[] => {
  const google = config.integrations.googleCalendar;
  return [...new Set([google.apiBaseUrl, google.tokenUrl, google.revokeUrl].map((url) => new URL(url).hostname))];
};

export const googleCalendarConnector: Connector = {
  kind: 'googlecalendar',
  auth: {
    type: 'oauth',
    configured: (config) => config.integrations.googleCalendar.app !== null,
    authorizeUrl: (config, input) => googleAuthorizeUrl(config, input),
    async exchangeCode(session, input) {
      const tokens = await googleExchangeCode(session.fetch, session.config.integrations.googleCalendar, input);
      const calendars = await listCalendars(calendarTarget({ ...session, credentials: { accessToken: tokens.accessToken } }));
      // The primary calendar's id is the Google account's address: what the page shows.
      const primary = calendars.find((c) => c.primary);
      const connection: Record<string, string> = primary === undefined ? {} : { googleAccount: primary.id };
      return { ...tokens, connection };
    },
    refresh: (session) => googleRefresh(session.fetch, session.config.integrations.googleCalendar, session.credentials.refreshToken),
  },
  properties: googleCalendarPropertiesSchema,
  defaultProperties: GOOGLE_CALENDAR_DEFAULT_PROPERTIES,
  operatorHosts: hostsOf,
  sync: {},
  revoke: (session) => googleRevoke(session.fetch, session.config.integrations.googleCalendar, session.credentials.refreshToken ?? session.credentials.accessToken ?? ''),
};
