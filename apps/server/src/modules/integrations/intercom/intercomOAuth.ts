import { z } from 'zod';
import type { Config, IntercomConfig } from '../../../platform/config.js';
import type { GuardedFetch } from '../../../platform/net/guardedFetch.js';
import type { OAuthTokens } from '../connector.js';
import { ProviderError } from '../providerError.js';
import { checkAnswer, intercomFetch, jsonOf } from './intercomHttp.js';

/*
 * Intercom's OAuth (docs/integrations.md, "Intercom"): the authorize page at INTERCOM_OAUTH_BASE_URL/oauth,
 * the code traded at INTERCOM_API_BASE_URL/auth/eagle/token with the client id and secret. Intercom documents
 * no PKCE (the framework's challenge is not sent), no refresh token and no expiry: a token lasts until the
 * workspace uninstalls the app (docs/decisions.md). The official client has no OAuth calls; these are made here.
 */

const tokenAnswer = z.union([
  z.object({ access_token: z.string().min(1) }).transform((a) => a.access_token),
  z.object({ token: z.string().min(1) }).transform((a) => a.token),
]);

/** The Developer Hub app, or a refusal when the operator has not registered one. */
export function intercomApp(config: IntercomConfig): { clientId: string; clientSecret: string } {
  if (config.app === null) throw new ProviderError('failed', 'Intercom is not configured on this server');
  return config.app;
}

export function intercomAuthorizeUrl(config: Config, input: { state: string; redirectUri: string }): string {
  const intercom = config.integrations.intercom;
  const query = new URLSearchParams({ client_id: intercomApp(intercom).clientId, state: input.state, redirect_uri: input.redirectUri });
  return `${intercom.oauthBaseUrl}/oauth?${query.toString()}`;
}

/** Trades the code for the workspace's access token. */
export async function intercomTokenCall(fetch: GuardedFetch, config: IntercomConfig, code: string): Promise<OAuthTokens> {
  const app = intercomApp(config);
  const url = `${config.apiBaseUrl}/auth/eagle/token`;
  const answer = await intercomFetch(fetch, url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ code, client_id: app.clientId, client_secret: app.clientSecret }).toString(),
  });
  // A refused code is answered 400 or 401: either way the connection must be made again.
  if (answer.status === 400) throw new ProviderError('unauthorized', 'Intercom refused the authorization; connect again');
  checkAnswer(answer, url);
  const parsed = tokenAnswer.safeParse(jsonOf(answer, url));
  if (!parsed.success) throw new ProviderError('failed', "Intercom's token answer is not as documented");
  return { accessToken: parsed.data };
}
