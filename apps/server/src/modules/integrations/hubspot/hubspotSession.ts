import http from 'node:http';
import https from 'node:https';
import { HUBSPOT_DEFAULT_PROPERTIES, hubspotPropertiesSchema, type HubSpotProperties } from '@parley/shared';
import type { Config } from '../../../platform/config.js';
import { guardedLookup, systemResolver } from '../../../platform/net/addressPolicy.js';
import { allowedHostsFrom } from '../../../platform/net/allowedHosts.js';
import { GuardedFetchError } from '../../../platform/net/guardedFetch.js';
import type { ConnectorSession } from '../connector.js';
import { ProviderError } from '../providerError.js';
import type { HubSpotConnection, HubSpotEndpoint } from './hubspotClient.js';
import { HubSpotAuthError, HubSpotRateLimited, HubSpotRequestError } from './hubspotErrors.js';
import type { HubSpotOAuthApp } from './hubspotOAuth.js';

/** The host of HUBSPOT_API_BASE_URL: the operator's choice, so the guarded lookup lets it through. */
export const hubspotOperatorHosts = (config: Config): string[] => [new URL(config.integrations.hubspot.apiBaseUrl).hostname];

/**
 * HubSpot's API for this deployment. The official client makes its own requests, so it connects through an
 * agent whose lookup is the guarded fetcher's (docs/integrations-hubspot.md, "Network").
 */
export function hubspotEndpoint(config: Config): HubSpotEndpoint {
  const { apiBaseUrl } = config.integrations.hubspot;
  const lookup = guardedLookup(allowedHostsFrom([...config.fetch.allowedHosts, ...hubspotOperatorHosts(config)]), systemResolver);
  const httpAgent = apiBaseUrl.startsWith('https:') ? new https.Agent({ lookup }) : new http.Agent({ lookup });
  return { apiBaseUrl, httpAgent };
}

/** The registered app; a connector call without one is a configuration error, refused as the provider's failure. */
export function hubspotApp(config: Config, redirectUri = ''): HubSpotOAuthApp {
  const { app, authUrl } = config.integrations.hubspot;
  if (app === null) throw new ProviderError('failed', 'HubSpot is not configured on this server');
  return { ...hubspotEndpoint(config), ...app, redirectUri, authorizeUrl: authUrl };
}

export function hubspotConnection(session: Pick<ConnectorSession, 'config' | 'credentials'>): HubSpotConnection {
  return { ...hubspotEndpoint(session.config), accessToken: session.credentials.accessToken ?? '' };
}

/** The account's properties, defaults for those it never saved. */
export function hubspotPropertiesOf(session: Pick<ConnectorSession, 'properties'>): HubSpotProperties {
  const parsed = hubspotPropertiesSchema.safeParse({ ...HUBSPOT_DEFAULT_PROPERTIES, ...session.properties });
  return parsed.success ? parsed.data : HUBSPOT_DEFAULT_PROPERTIES;
}

/** The adapter's typed errors as the framework's (a guarded refusal is a failure like HubSpot's own). */
function providerErrorOf(error: unknown): unknown {
  if (error instanceof HubSpotAuthError) return new ProviderError('unauthorized', `HubSpot refused the connection: ${error.reason}`);
  if (error instanceof HubSpotRateLimited) return new ProviderError('rateLimited', error.message, Math.max(1, Math.ceil(error.retryAfterMs / 1000)));
  if (error instanceof HubSpotRequestError) return new ProviderError('failed', error.message);
  if (error instanceof GuardedFetchError) return new ProviderError('failed', `HubSpot cannot be reached: ${error.message}`);
  return error;
}

/** Runs adapter calls, throwing their refusals as ProviderErrors. */
export async function viaHubSpot<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw providerErrorOf(error);
  }
}
