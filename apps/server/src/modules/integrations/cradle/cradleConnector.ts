import { randomBytes } from 'node:crypto';
import { CRADLE_DEFAULT_PROPERTIES, cradleConnectSchema, cradlePropertiesSchema } from '@parley/shared';
import type { Config } from '../../../platform/config.js';
import type { Connector, ConnectorSession } from '../connector.js';
import { ProviderError } from '../providerError.js';
import { CRADLE_NOT_CONFIGURED, cradleAccount, cradleCreateWebhook, cradleDeleteWebhook, type CradleTarget } from './cradleApi.js';

/** The path Cradle's webhook posts to: the key names the connection, the signature proves it is Cradle. */
export const cradleWebhookPath = (key: string): string => `/v1/integrations/cradle/webhook/${key}`;

function targetOf(session: Pick<ConnectorSession, 'config' | 'fetch'>, apiKey: string): CradleTarget {
  const origin = session.config.integrations.cradleApiBaseUrl;
  if (origin === null) throw new ProviderError('failed', CRADLE_NOT_CONFIGURED);
  return { origin, apiKey, fetch: session.fetch };
}

const hostsOf = (config: Config): string[] => (config.integrations.cradleApiBaseUrl === null ? [] : [new URL(config.integrations.cradleApiBaseUrl).hostname]);

/*
 * Cradle (docs/integrations.md, "Cradle"; its API as assumed there): an API key, tried against the account
 * it belongs to; connecting registers Parley's webhook with a secret made for this connection, which signs
 * each call event. Calls are filed by their number pair, as every Parley conversation already is.
 */
export const cradleConnector: Connector = {
  kind: 'cradle',
  auth: {
    type: 'apiKey',
    fields: cradleConnectSchema,
    async connect(session, fields) {
      const apiKey = fields.apiKey ?? '';
      const target = targetOf(session, apiKey);
      const account = await cradleAccount(target);
      const webhookKey = randomBytes(18).toString('base64url');
      const signingSecret = randomBytes(32).toString('base64url');
      const webhookId = await cradleCreateWebhook(target, { url: `${session.config.publicUrl}${cradleWebhookPath(webhookKey)}`, secret: signingSecret });
      return {
        credentials: { apiKey, webhookId, signingSecret },
        connection: { accountId: account.id, cradleAccount: account.name, webhookKey },
      };
    },
  },
  properties: cradlePropertiesSchema,
  defaultProperties: CRADLE_DEFAULT_PROPERTIES,
  operatorHosts: hostsOf,
  sync: {},
  async revoke(session) {
    const webhookId = session.credentials.webhookId ?? '';
    if (webhookId !== '') await cradleDeleteWebhook(targetOf(session, session.credentials.apiKey ?? ''), webhookId);
  },
};
