import { configuredMiddleware, type HubSpotEndpoint, hubspotClient } from './hubspotClient.js';
import { callHubSpot, HubSpotAuthError, HubSpotRequestError, hubspotError } from './hubspotErrors.js';

/*
 * HubSpot's OAuth 2 authorization code flow (docs/integrations-hubspot.md, "Connecting"). HubSpot documents
 * no PKCE: its authorize page takes client_id, redirect_uri, scope, optional_scope and state, and its token
 * endpoint (and the official client's tokensApi) no code_verifier. The app is a confidential client (the
 * secret stays on the server) and the framework's single-use state, bound to the user's session and account,
 * guards the callback.
 */

/** Whether HubSpot takes a PKCE code_challenge: it documents none. */
export const hubspotSupportsPkce = false;

/** What Parley needs: contacts read and written (timeline communications are contact engagements), lists read. */
export const hubspotScopes = ['oauth', 'crm.objects.contacts.read', 'crm.objects.contacts.write', 'crm.lists.read'] as const;

/** Asked for but not required: workflows (custom workflow actions) exist only on some HubSpot plans. */
export const hubspotOptionalScopes = ['automation'] as const;

/** The operator's HubSpot app and where HubSpot lives (configuration; a local peer in tests). */
export interface HubSpotOAuthApp extends HubSpotEndpoint {
  clientId: string;
  clientSecret: string;
  /** `{PUBLIC_URL}/v1/integrations/hubspot/oauth/callback`, exactly as registered on the app. */
  redirectUri: string;
  /** HubSpot's authorize page, `https://app.hubspot.com/oauth/authorize` in production. */
  authorizeUrl: string;
}

export interface HubSpotTokens {
  accessToken: string;
  refreshToken: string;
  expiresAt: Date;
}

/** Tokens of a new connection, with the HubSpot account (portal) they belong to. */
export interface HubSpotGrant extends HubSpotTokens {
  /** The HubSpot account id; workflow action requests name it as `origin.portalId`. */
  hubId: string;
  hubDomain: string | null;
  scopes: string[];
}

/** The page the user is sent to, carrying the framework's state. */
export function hubspotAuthorizeUrl(app: HubSpotOAuthApp, state: string): string {
  // The library writes HubSpot's documented query (scopes joined by %20) for HubSpot's own host; keep its query.
  const made = hubspotClient(app).oauth.getAuthorizationUrl(app.clientId, app.redirectUri, hubspotScopes.join(' '), hubspotOptionalScopes.join(' '), state);
  return `${app.authorizeUrl}${made.slice(made.indexOf('?'))}`;
}

/** A token call: HubSpot answers 400 for a bad code, refresh token or client; any of those is an auth error. */
async function tokenCall(app: HubSpotOAuthApp, grant: { code: string } | { refreshToken: string }, now: Date): Promise<HubSpotTokens> {
  const api = hubspotClient(app).oauth.tokensApi;
  try {
    const answer =
      'code' in grant
        ? await api.create('authorization_code', grant.code, app.redirectUri, app.clientId, app.clientSecret, undefined, configuredMiddleware())
        : await api.create('refresh_token', undefined, undefined, app.clientId, app.clientSecret, grant.refreshToken, configuredMiddleware());
    return { accessToken: answer.accessToken, refreshToken: answer.refreshToken, expiresAt: new Date(now.getTime() + answer.expiresIn * 1000) };
  } catch (error) {
    const typed = hubspotError(error);
    if (typed instanceof HubSpotRequestError && typed.status === 400) throw new HubSpotAuthError(typed.reason, 400);
    throw typed;
  }
}

/** Exchanges the callback's code for tokens and reads which HubSpot account they open. */
export async function exchangeHubSpotCode(app: HubSpotOAuthApp, code: string, now = new Date()): Promise<HubSpotGrant> {
  const tokens = await tokenCall(app, { code }, now);
  const api = hubspotClient(app).oauth.accessTokensApi;
  const info = await callHubSpot(() => api.get(tokens.accessToken, configuredMiddleware()));
  return { ...tokens, hubId: String(info.hubId), hubDomain: info.hubDomain ?? null, scopes: info.scopes };
}

/** New tokens for a refresh token (HubSpot may hand back the same refresh token). */
export function refreshHubSpotToken(app: HubSpotOAuthApp, refreshToken: string, now = new Date()): Promise<HubSpotTokens> {
  return tokenCall(app, { refreshToken }, now);
}

/**
 * Revokes the connection on disconnect (HubSpot's refresh token DELETE). A token HubSpot no longer knows is
 * already revoked, so its 400 or 404 counts as done.
 */
export async function revokeHubSpotToken(app: HubSpotEndpoint, refreshToken: string): Promise<void> {
  try {
    await hubspotClient(app).oauth.refreshTokensApi.archive(refreshToken, configuredMiddleware());
  } catch (error) {
    const typed = hubspotError(error);
    if (typed instanceof HubSpotRequestError && (typed.status === 400 || typed.status === 404)) return;
    throw typed;
  }
}
