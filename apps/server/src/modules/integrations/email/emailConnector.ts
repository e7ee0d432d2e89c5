import { EMAIL_DEFAULT_PROPERTIES, EMAIL_INBOUND_OFF_MESSAGE, emailConnectSchema, emailPropertiesSchema } from '@parley/shared';
import type { Connector } from '../connector.js';
import { ProviderError } from '../providerError.js';
import { newMailToken, tokenAddress } from './emailAddress.js';

/**
 * The Email integration (docs/integrations.md, "Email"): no provider to call; connecting gives the account
 * a token address on the inbound domain, and connecting again gives a new one (the old stops working).
 * The token is no secret kept from the account (it is the address), so it sits in `connection`.
 */
export const emailConnector: Connector = {
  kind: 'email',
  auth: {
    type: 'apiKey',
    fields: emailConnectSchema,
    connect(session) {
      const inbound = session.config.inboundMail;
      if (inbound === null) return Promise.reject(new ProviderError('failed', EMAIL_INBOUND_OFF_MESSAGE));
      const token = newMailToken();
      return Promise.resolve({ credentials: {}, connection: { token, address: tokenAddress(token, inbound.domain) } });
    },
  },
  properties: emailPropertiesSchema,
  defaultProperties: EMAIL_DEFAULT_PROPERTIES,
  operatorHosts: () => [],
  sync: {},
};
