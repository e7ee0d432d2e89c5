import { Client } from '@hubspot/api-client';

/** Where and as whom the adapter calls HubSpot's API: the base URL comes from configuration (a local peer in tests). */
export interface HubSpotConnection {
  /** HubSpot's API origin, `https://api.hubapi.com` in production. */
  apiBaseUrl: string;
  accessToken: string;
}

/**
 * The official client on a base URL. It retries nothing and limits nothing itself: a 429 goes back to the
 * framework, which reschedules the job (docs/integrations-hubspot.md, "Errors"). The library keeps its retry
 * and limiter decorators process-wide and applies them when an API object is first read, so callers read the
 * API they need in the same expression that makes the client (`hubspotClient(...).crm.contacts.basicApi`).
 */
export function hubspotClient(apiBaseUrl: string, accessToken?: string): Client {
  return new Client({
    basePath: apiBaseUrl.replace(/\/+$/, ''),
    numberOfApiCallRetries: 0,
    ...(accessToken === undefined ? {} : { accessToken }),
  });
}
