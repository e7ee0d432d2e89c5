import { createHmac } from 'node:crypto';
import { INTERCOM_DEFAULT_PROPERTIES, intercomPropertiesSchema } from '@parley/shared';
import type { Config } from '../../../platform/config.js';
import type { Connector, ConnectorSession, InboundRequest, RelayedMessage } from '../connector.js';
import { ProviderError } from '../providerError.js';
import { intercomClose, intercomContactsByPhone, intercomCreateContact, intercomMe, intercomReplyAsContact, intercomStartConversation } from './intercomApi.js';
import type { IntercomTarget } from './intercomClient.js';
import { intercomAuthorizeUrl, intercomTokenCall } from './intercomOAuth.js';
import { sameSecretText } from '../../../platform/secrets/sameSecretText.js';

/** What an empty text (a picture alone) says in Intercom, whose messages need a body. */
export const INTERCOM_NO_TEXT = '(a message without text)';

export function intercomTarget(session: Pick<ConnectorSession, 'credentials' | 'fetch' | 'config'>): IntercomTarget {
  return { apiBaseUrl: session.config.integrations.intercom.apiBaseUrl, accessToken: session.credentials.accessToken ?? '', fetch: session.fetch };
}

/** The Intercom contact for the Parley contact: the linked one, else the one with this phone, else a new user. */
async function contactFor(target: IntercomTarget, message: RelayedMessage): Promise<string> {
  if (message.contactExternalId !== null) return message.contactExternalId;
  const [found] = await intercomContactsByPhone(target, message.contact.mobile);
  if (found !== undefined) return found.id;
  const name = `${message.contact.firstName} ${message.contact.lastName}`.trim();
  return intercomCreateContact(target, { phone: message.contact.mobile, name });
}

const headerOf = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/** `X-Hub-Signature: sha1=<hex HMAC-SHA1 of the raw body>` keyed with the app's client secret. */
export function intercomSignatureOk(config: Config, request: InboundRequest): boolean {
  const app = config.integrations.intercom.app;
  const given = headerOf(request.headers['x-hub-signature']);
  if (app === null || given === undefined) return false;
  return sameSecretText(given.trim().toLowerCase(), `sha1=${createHmac('sha1', app.clientSecret).update(request.rawBody).digest('hex')}`);
}

const hostsOf = (config: Config): string[] => {
  const { apiBaseUrl, oauthBaseUrl } = config.integrations.intercom;
  return [new URL(apiBaseUrl).hostname, new URL(oauthBaseUrl).hostname];
};

export const intercomConnector: Connector = {
  kind: 'intercom',
  auth: {
    type: 'oauth',
    configured: (config) => config.integrations.intercom.app !== null,
    authorizeUrl: (config, input) => intercomAuthorizeUrl(config, input),
    async exchangeCode(session, input) {
      const tokens = await intercomTokenCall(session.fetch, session.config.integrations.intercom, input.code);
      const me = await intercomMe(intercomTarget({ ...session, credentials: { accessToken: tokens.accessToken } }));
      return { ...tokens, connection: { workspace: me.appName, workspaceId: me.appId }, extra: { adminId: me.adminId } };
    },
    refresh: () => Promise.reject(new ProviderError('unauthorized', "Intercom's tokens do not expire; connect again")),
  },
  properties: intercomPropertiesSchema,
  defaultProperties: INTERCOM_DEFAULT_PROPERTIES,
  operatorHosts: hostsOf,
  sync: {},
  conversations: {
    async relayInbound(session, message) {
      const target = intercomTarget(session);
      const contactExternalId = await contactFor(target, message);
      const body = message.text.trim() === '' ? INTERCOM_NO_TEXT : message.text;
      if (message.conversationExternalId !== null) {
        await intercomReplyAsContact(target, message.conversationExternalId, contactExternalId, body);
        return { contactExternalId, conversationExternalId: message.conversationExternalId };
      }
      return { contactExternalId, conversationExternalId: await intercomStartConversation(target, contactExternalId, body) };
    },
    close: (session, conversationExternalId) => intercomClose(intercomTarget(session), conversationExternalId, session.credentials.adminId ?? ''),
  },
  verifyInbound: intercomSignatureOk,
};
