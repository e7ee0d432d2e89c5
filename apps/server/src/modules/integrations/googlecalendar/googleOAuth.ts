import { z } from 'zod';
import type { Config, GoogleCalendarConfig } from '../../../platform/config.js';
import type { GuardedFetch } from '../../../platform/net/guardedFetch.js';
import type { OAuthTokens } from '../connector.js';
import { ProviderError } from '../providerError.js';
import { googleFailure, googleFetch } from './googleHttp.js';

/*
 * Google's OAuth 2 for a web server application (docs/integrations.md, "Google Calendar"): the authorize page
 * with PKCE (S256), offline access (a refresh token) and consent asked each time (so a connection made again
 * gets a refresh token again); the code and the refresh token traded at the token endpoint with the client
 * id and secret in the form; revocation at the revoke endpoint. Every call goes through the guarded fetcher.
 */

/** Read the calendars and their events; write events (a C or CANCEL reply declines the attendee). */
export const GOOGLE_CALENDAR_SCOPES = ['https://www.googleapis.com/auth/calendar.readonly', 'https://www.googleapis.com/auth/calendar.events'];

const tokenAnswer = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1).optional(),
  expires_in: z.number().positive().optional(),
});

export function googleApp(config: GoogleCalendarConfig): { clientId: string; clientSecret: string } {
  if (config.app === null) throw new ProviderError('failed', 'Google Calendar is not configured on this server');
  return config.app;
}

export function googleAuthorizeUrl(config: Config, input: { state: string; codeChallenge: string; redirectUri: string }): string {
  const google = config.integrations.googleCalendar;
  const query = new URLSearchParams({
    client_id: googleApp(google).clientId,
    redirect_uri: input.redirectUri,
    response_type: 'code',
    scope: GOOGLE_CALENDAR_SCOPES.join(' '),
    access_type: 'offline',
    prompt: 'consent',
    include_granted_scopes: 'true',
    state: input.state,
    code_challenge: input.codeChallenge,
    code_challenge_method: 'S256',
  });
  return `${google.authUrl}?${query.toString()}`;
}

async function tokenCall(fetch: GuardedFetch, config: GoogleCalendarConfig, form: Record<string, string>, now = new Date()): Promise<OAuthTokens> {
  const app = googleApp(config);
  const answer = await googleFetch(fetch, config.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ ...form, client_id: app.clientId, client_secret: app.clientSecret }).toString(),
  });
  const text = answer.body.toString('utf8');
  // A refused code or refresh token is answered 400 invalid_grant: the connection must be made again.
  const failure = googleFailure(answer.status, answer.headers, text, 'the token call');
  if (failure !== null) throw failure;
  let parsed;
  try {
    parsed = tokenAnswer.safeParse(JSON.parse(text));
  } catch {
    parsed = null;
  }
  if (parsed === null || !parsed.success) throw new ProviderError('failed', "Google's token answer is not as documented");
  const { access_token: accessToken, refresh_token: refreshToken, expires_in: expiresIn } = parsed.data;
  return {
    accessToken,
    ...(refreshToken === undefined ? {} : { refreshToken }),
    ...(expiresIn === undefined ? {} : { expiresAt: new Date(now.getTime() + expiresIn * 1000).toISOString() }),
  };
}

export const googleExchangeCode = (fetch: GuardedFetch, config: GoogleCalendarConfig, input: { code: string; codeVerifier: string; redirectUri: string }): Promise<OAuthTokens> =>
  tokenCall(fetch, config, { grant_type: 'authorization_code', code: input.code, code_verifier: input.codeVerifier, redirect_uri: input.redirectUri });

export function googleRefresh(fetch: GuardedFetch, config: GoogleCalendarConfig, refreshToken: string | undefined): Promise<OAuthTokens> {
  if (refreshToken === undefined) return Promise.reject(new ProviderError('unauthorized', 'Google gave no refresh token; connect again'));
  return tokenCall(fetch, config, { grant_type: 'refresh_token', refresh_token: refreshToken });
}

/** Revokes the grant (the refresh token, else the access token): Google then forgets the connection. */
export async function googleRevoke(fetch: GuardedFetch, config: GoogleCalendarConfig, token: string): Promise<void> {
  const answer = await googleFetch(fetch, config.revokeUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token }).toString(),
  });
  const failure = googleFailure(answer.status, answer.headers, answer.body.toString('utf8'), 'the revocation');
  if (failure !== null) throw failure;
}
