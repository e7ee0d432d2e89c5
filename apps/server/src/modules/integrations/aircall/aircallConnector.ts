import { randomBytes } from 'node:crypto';
import { AIRCALL_DEFAULT_PROPERTIES, aircallPropertiesSchema } from '@parley/shared';
import type { Config } from '../../../platform/config.js';
import type { Connector, ConnectorSession } from '../connector.js';
import { ProviderError } from '../providerError.js';
import { aircallCreateWebhook, aircallDeleteWebhook, aircallMe, aircallTokenCall } from './aircallApi.js';
import type { AirCallTarget } from './aircallHttp.js';

/*
 * AirCall (docs/integrations.md, "AirCall"): OAuth 2 authorization code at AIRCALL_OAUTH_BASE_URL/oauth/authorize,
 * the code traded at AIRCALL_API_BASE_URL/v1/oauth/token. AirCall documents no PKCE (the framework's challenge is
 * not sent) and tokens that do not expire. Connecting creates the webhook Parley's address receives calls on
 * and keeps the token AirCall puts in each event (sealed with the access token).
 */

/** The path AirCall's webhook posts to: the key names the connection, the body's token proves it is AirCall. */
export const aircallWebhookPath = (key: string): string => `/v1/integrations/aircall/webhook/${key}`;
export const aircallWebhookUrl = (config: Config, key: string): string => `${config.publicUrl}${aircallWebhookPath(key)}`;

export function aircallTarget(session: Pick<ConnectorSession, 'credentials' | 'fetch' | 'config'>): AirCallTarget {
  return { origin: session.config.integrations.aircall.apiBaseUrl, accessToken: session.credentials.accessToken ?? '', fetch: session.fetch };
}

function authorizeUrl(config: Config, input: { state: string; redirectUri: string }): string {
  const { app, oauthBaseUrl } = config.integrations.aircall;
  if (app === null) throw new ProviderError('failed', 'AirCall is not configured on this server');
  const query = new URLSearchParams({ client_id: app.clientId, redirect_uri: input.redirectUri, response_type: 'code', scope: 'public_api', state: input.state });
  return `${oauthBaseUrl}/oauth/authorize?${query.toString()}`;
}

export const aircallConnector: Connector = {
  kind: 'aircall',
  auth: {
    type: 'oauth',
    configured: (config) => config.integrations.aircall.app !== null,
    authorizeUrl,
    async exchangeCode(session, input) {
      const accessToken = await aircallTokenCall(session.fetch, session.config.integrations.aircall, input);
      const target = aircallTarget({ ...session, credentials: { accessToken } });
      const me = await aircallMe(target);
      const webhookKey = randomBytes(18).toString('base64url');
      const webhook = await aircallCreateWebhook(target, aircallWebhookUrl(session.config, webhookKey));
      return {
        accessToken,
        connection: { companyId: me.companyId, companyName: me.companyName, webhookKey },
        extra: { webhookId: webhook.webhookId, webhookToken: webhook.token },
      };
    },
    refresh: () => Promise.reject(new ProviderError('unauthorized', "AirCall's tokens do not expire; connect again")),
  },
  properties: aircallPropertiesSchema,
  defaultProperties: AIRCALL_DEFAULT_PROPERTIES,
  operatorHosts: (config) => [new URL(config.integrations.aircall.apiBaseUrl).hostname, new URL(config.integrations.aircall.oauthBaseUrl).hostname],
  sync: {},
  // Disconnecting removes Parley's webhook from AirCall; the token itself cannot be revoked through the API.
  async revoke(session) {
    const webhookId = session.credentials.webhookId ?? '';
    if (webhookId !== '') await aircallDeleteWebhook(aircallTarget(session), webhookId);
  },
};
