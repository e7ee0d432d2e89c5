import { connectThroughOAuth, type IntegrationHarness } from '../../test/integrationHarness.js';
import type { IntercomPeer } from './intercomPeer.js';

/** Configuration pointing Intercom at the peer. */
export const intercomEnv = (peer: IntercomPeer): Record<string, string> => ({
  INTERCOM_CLIENT_ID: peer.clientId,
  INTERCOM_CLIENT_SECRET: peer.clientSecret,
  INTERCOM_API_BASE_URL: peer.url,
  INTERCOM_OAUTH_BASE_URL: peer.url,
});

/** The OAuth dance through the peer (connectThroughOAuth). */
export const connectIntercom = (h: IntegrationHarness, accountId: string, token: string, tamper = false): Promise<string> =>
  connectThroughOAuth(h, 'intercom', accountId, token, tamper);

/** Posts a notification to the webhook as Intercom does (`signature` null: unsigned). */
export const postNotification = (h: IntegrationHarness, note: { body: string; signature: string | null }) =>
  h.app.inject({
    method: 'POST',
    url: '/v1/integrations/intercom/webhook',
    headers: { 'content-type': 'application/json', ...(note.signature === null ? {} : { 'x-hub-signature': note.signature }) },
    payload: note.body,
  });
