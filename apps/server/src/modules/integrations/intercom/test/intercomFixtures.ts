import { expect } from 'vitest';
import type { IntegrationHarness } from '../../test/integrationHarness.js';
import type { IntercomPeer } from './intercomPeer.js';

/** Configuration pointing Intercom at the peer. */
export const intercomEnv = (peer: IntercomPeer): Record<string, string> => ({
  INTERCOM_CLIENT_ID: peer.clientId,
  INTERCOM_CLIENT_SECRET: peer.clientSecret,
  INTERCOM_API_BASE_URL: peer.url,
  INTERCOM_OAUTH_BASE_URL: peer.url,
});

/** The OAuth dance as a browser makes it: start, the peer's authorize page, the callback. Answers where the callback sent the browser. */
export async function connectIntercom(h: IntegrationHarness, accountId: string, token: string, tamper = false): Promise<string> {
  const start = await h.call('GET', `/v1/accounts/${accountId}/integrations/intercom/oauth/start`, token);
  expect(start.statusCode, start.body).toBe(200);
  const authorize = await fetch(start.json<{ data: { url: string } }>().data.url, { redirect: 'manual' });
  const back = new URL(authorize.headers.get('location') ?? '');
  if (tamper) back.searchParams.set('state', `${back.searchParams.get('state') ?? ''}x`);
  const callback = await h.app.inject({ method: 'GET', url: `${back.pathname}${back.search}` });
  expect(callback.statusCode).toBe(302);
  return String(callback.headers.location);
}

/** Posts a notification to the webhook as Intercom does (`signature` null: unsigned). */
export const postNotification = (h: IntegrationHarness, note: { body: string; signature: string | null }) =>
  h.app.inject({
    method: 'POST',
    url: '/v1/integrations/intercom/webhook',
    headers: { 'content-type': 'application/json', ...(note.signature === null ? {} : { 'x-hub-signature': note.signature }) },
    payload: note.body,
  });
