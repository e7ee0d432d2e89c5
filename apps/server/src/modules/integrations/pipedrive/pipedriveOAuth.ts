import { isIP } from 'node:net';
import { z } from 'zod';
import type { Config, PipedriveConfig } from '../../../platform/config.js';
import type { GuardedFetch } from '../../../platform/net/guardedFetch.js';
import type { OAuthTokens } from '../connector.js';
import { ProviderError } from '../providerError.js';
import { checkAnswer, jsonOf, pipedriveFetch } from './pipedriveHttp.js';

/*
 * Pipedrive's OAuth 2 (docs/integrations.md, "Pipedrive"): the authorize page and the token endpoint on
 * PIPEDRIVE_OAUTH_BASE_URL, the client authenticated with HTTP Basic on the token call. The official client's
 * OAuth2Configuration builds no state or PKCE into its authorize URL and sends its token calls through an
 * axios instance of its own, out of the guarded fetcher's reach; these calls are made here with the
 * documented shapes instead (docs/decisions.md).
 */

export const PIPEDRIVE_API_DOMAIN_REFUSED = "Pipedrive named an API domain outside this server's Pipedrive API base";

const tokenAnswer = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1).optional(),
  expires_in: z.number().positive().optional(),
  api_domain: z.string().min(1),
});

/** The Marketplace app, or a refusal when the operator has not registered one. */
function appOf(config: PipedriveConfig): { clientId: string; clientSecret: string } {
  if (config.app === null) throw new ProviderError('failed', 'Pipedrive is not configured on this server');
  return config.app;
}

/** The registrable part of a host the way Pipedrive spreads companies over it: api.pipedrive.com → pipedrive.com. */
const domainOf = (host: string): string => {
  const labels = host.split('.');
  return labels.length > 2 ? labels.slice(1).join('.') : host;
};

/**
 * A company's api_domain as an origin, when it lies under the configured API base's domain (same scheme and
 * port; an address base allows only itself); null otherwise. A token answer is believed only this far: it
 * must not send the company's token, or Parley's calls, elsewhere.
 */
export function trustedApiOrigin(config: PipedriveConfig, apiDomain: string): string | null {
  let url: URL;
  try {
    url = new URL(apiDomain);
  } catch {
    return null;
  }
  const base = new URL(config.apiBaseUrl);
  if (url.protocol !== base.protocol || url.port !== base.port || url.username !== '' || url.password !== '' || !['', '/'].includes(url.pathname)) return null;
  const host = url.hostname.toLowerCase();
  const allowed = isIP(base.hostname) !== 0 ? host === base.hostname : host === domainOf(base.hostname) || host.endsWith(`.${domainOf(base.hostname)}`);
  return allowed ? url.origin : null;
}

export function pipedriveAuthorizeUrl(config: Config, input: { state: string; codeChallenge: string; redirectUri: string }): string {
  const pipedrive = config.integrations.pipedrive;
  const query = new URLSearchParams({
    client_id: appOf(pipedrive).clientId,
    redirect_uri: input.redirectUri,
    state: input.state,
    code_challenge: input.codeChallenge,
    code_challenge_method: 'S256',
  });
  return `${pipedrive.oauthBaseUrl}/oauth/authorize?${query.toString()}`;
}

/** A token call (a code or a refresh token); the answer's api_domain checked and kept. */
export async function pipedriveTokenCall(fetch: GuardedFetch, config: PipedriveConfig, grant: Record<string, string>): Promise<OAuthTokens> {
  const app = appOf(config);
  const url = `${config.oauthBaseUrl}/oauth/token`;
  const answer = await pipedriveFetch(fetch, url, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    },
    body: new URLSearchParams(grant).toString(),
  });
  // A refused code or refresh token is answered 400 or 401: either way the connection must be made again.
  if (answer.status === 400) throw new ProviderError('unauthorized', 'Pipedrive refused the authorization; connect again');
  checkAnswer(answer, url);
  const parsed = tokenAnswer.safeParse(jsonOf(answer, url));
  if (!parsed.success) throw new ProviderError('failed', "Pipedrive's token answer is not as documented");
  const apiOrigin = trustedApiOrigin(config, parsed.data.api_domain);
  if (apiOrigin === null) throw new ProviderError('failed', PIPEDRIVE_API_DOMAIN_REFUSED);
  const { access_token: accessToken, refresh_token: refreshToken, expires_in: expiresIn } = parsed.data;
  return {
    accessToken,
    ...(refreshToken === undefined ? {} : { refreshToken }),
    ...(expiresIn === undefined ? {} : { expiresAt: new Date(Date.now() + expiresIn * 1000).toISOString() }),
    extra: { apiOrigin },
  };
}

/** Revokes the refresh token (and with it the app's install for the company); the answer is not awaited on. */
export async function pipedriveRevoke(fetch: GuardedFetch, config: PipedriveConfig, refreshToken: string): Promise<void> {
  if (config.app === null || refreshToken === '') return;
  const { clientId, clientSecret } = config.app;
  await pipedriveFetch(fetch, `${config.oauthBaseUrl}/oauth/revoke`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: refreshToken, token_type_hint: 'refresh_token' }).toString(),
  });
}
