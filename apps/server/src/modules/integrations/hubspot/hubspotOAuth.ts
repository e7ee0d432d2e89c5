import type { GuardedFetch } from '../../../platform/net/guardedFetch.js';
import { type HubSpotEndpoint, hubspotClient } from './hubspotClient.js';
import { type HubSpotTokenAnswer, hubspotOAuthRefusal, introspectHubSpotToken, postHubSpotRevoke, postHubSpotToken } from './hubspotOAuthHttp.js';

/*
 * HubSpot's OAuth 2 authorization code flow (docs/integrations-hubspot.md, "Connecting"), its token calls on
 * the dated 2026-03 endpoints (hubspotOAuthHttp.ts). The 2026-03 token endpoint lists a code_verifier, but the
 * authorize page documents no code_challenge to pair it with, so Parley sends none (docs/decisions.md): the
 * app is a confidential client (the secret stays on the server) and the framework's single-use state, bound
 * to the user's session and account, guards the callback.
 */

/** Whether HubSpot's authorize page takes a PKCE code_challenge: it documents none. */
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

/** Tokens and when the access token expires, from the token endpoint's answer. */
function tokensOf(answer: HubSpotTokenAnswer, now: Date): HubSpotTokens {
  return { accessToken: answer.access_token, refreshToken: answer.refresh_token, expiresAt: new Date(now.getTime() + answer.expires_in * 1000) };
}

/** Exchanges the callback's code for tokens and reads (introspection) which HubSpot account they open. */
export async function exchangeHubSpotCode(fetch: GuardedFetch, app: HubSpotOAuthApp, code: string, now = new Date()): Promise<HubSpotGrant> {
  const answer = await postHubSpotToken(fetch, app, { grant_type: 'authorization_code', code, redirect_uri: app.redirectUri });
  const tokens = tokensOf(answer, now);
  const info = await introspectHubSpotToken(fetch, app, tokens.accessToken);
  return { ...tokens, hubId: String(info.hubId), hubDomain: info.hubDomain, scopes: info.scopes };
}

/** New tokens for a refresh token (HubSpot may hand back the same refresh token). */
export async function refreshHubSpotToken(fetch: GuardedFetch, app: HubSpotOAuthApp, refreshToken: string, now = new Date()): Promise<HubSpotTokens> {
  return tokensOf(await postHubSpotToken(fetch, app, { grant_type: 'refresh_token', refresh_token: refreshToken }), now);
}

const refusesClient = (body: unknown): boolean => typeof body === 'object' && body !== null && (body as { error?: unknown }).error === 'invalid_client';

/**
 * Revokes the connection on disconnect (`/oauth/2026-03/token/revoke`). A token HubSpot no longer knows is
 * already revoked, so its 400 or 404 counts as done; a refused client (RFC 6749's `invalid_client`) does not.
 */
export async function revokeHubSpotToken(fetch: GuardedFetch, app: HubSpotOAuthApp, refreshToken: string): Promise<void> {
  const answer = await postHubSpotRevoke(fetch, app, refreshToken);
  if (answer.status >= 200 && answer.status < 300) return;
  if ((answer.status === 400 || answer.status === 404) && !refusesClient(answer.body)) return;
  throw hubspotOAuthRefusal(answer);
}
