import type { Agent as HttpAgent } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import { Client } from '@hubspot/api-client';

/** Where HubSpot is and how to reach it: the base URL comes from configuration (a local peer in tests). */
export interface HubSpotEndpoint {
  /** HubSpot's API origin, `https://api.hubapi.com` in production. */
  apiBaseUrl: string;
  /**
   * The agent the client connects through, for the base URL's protocol: the framework passes one whose
   * lookup is the guarded one (platform/net/addressPolicy.ts), so HubSpot's host is reached only at public
   * addresses unless the operator allows it (docs/integrations-hubspot.md, "Network").
   */
  httpAgent?: HttpAgent | HttpsAgent;
}

/** An endpoint and the connection's access token. */
export interface HubSpotConnection extends HubSpotEndpoint {
  accessToken: string;
}

/**
 * The official client on a base URL. It retries nothing and limits nothing itself: a 429 goes back to the
 * framework, which reschedules the job (docs/integrations-hubspot.md, "Errors"). The library keeps its retry
 * and limiter decorators process-wide and applies them when an API object is first read, so callers read the
 * API they need in the same expression that makes the client (`hubspotClient(...).crm.contacts.basicApi`).
 */
export function hubspotClient(endpoint: HubSpotEndpoint & { accessToken?: string }): Client {
  return new Client({
    basePath: endpoint.apiBaseUrl.replace(/\/+$/, ''),
    numberOfApiCallRetries: 0,
    ...(endpoint.accessToken === undefined ? {} : { accessToken: endpoint.accessToken }),
    ...(endpoint.httpAgent === undefined ? {} : { httpAgent: endpoint.httpAgent }),
  });
}

/**
 * The options every call passes. The library's generated APIs apply the client's configured middleware (its
 * User-Agent header and the httpAgent above) only to a call that passes middleware of its own; appending
 * none makes each call use the configured ones.
 */
export const configuredMiddleware = (): { middleware: never[]; middlewareMergeStrategy: 'append' } => ({ middleware: [], middlewareMergeStrategy: 'append' });
