import crypto from 'node:crypto';
import type { PeerAnswer } from './hubspotPeerCrm.js';
import type { HubSpotPeerState } from './hubspotPeerState.js';

/** HubSpot's OAuth error body (its own status and message, and the RFC 6749 fields it added). */
const oauthError = (status: string, message: string, error = 'invalid_grant'): PeerAnswer => ({
  status: 400,
  body: { status, message, error, error_description: message, correlationId: crypto.randomUUID() },
});

function tokenGrant(peer: HubSpotPeerState, form: URLSearchParams): PeerAnswer {
  peer.tokenRequests.push(form);
  if (form.get('client_id') !== peer.clientId) return oauthError('BAD_CLIENT_ID', 'missing or invalid client_id', 'invalid_client');
  if (form.get('client_secret') !== peer.clientSecret) return oauthError('BAD_CLIENT_SECRET', 'missing or invalid client_secret', 'invalid_client');
  switch (form.get('grant_type')) {
    case 'authorization_code': {
      const redirectUri = peer.takeCode(form.get('code') ?? '');
      if (redirectUri === null) return oauthError('BAD_AUTH_CODE', 'missing or unknown auth code');
      if (form.get('redirect_uri') !== redirectUri) return oauthError('BAD_REDIRECT_URI', 'redirect_uri does not match initial auth request');
      return { status: 200, body: peer.issueTokens() };
    }
    case 'refresh_token': {
      const refreshToken = form.get('refresh_token') ?? '';
      if (!peer.knowsRefreshToken(refreshToken)) return oauthError('BAD_REFRESH_TOKEN', 'missing or unknown refresh token');
      return { status: 200, body: peer.issueTokens(refreshToken) };
    }
    case null:
    default:
      return oauthError('BAD_GRANT_TYPE', 'unsupported grant_type', 'unsupported_grant_type');
  }
}

/** /oauth/v1/token, /oauth/v1/access-tokens/{token} and /oauth/v1/refresh-tokens/{token}. */
export function answerOAuth(peer: HubSpotPeerState, method: string, url: URL, body: string): PeerAnswer {
  if (method === 'POST' && url.pathname === '/oauth/v1/token') return tokenGrant(peer, new URLSearchParams(body));
  const access = /^\/oauth\/v1\/access-tokens\/([^/]+)$/.exec(url.pathname);
  if (method === 'GET' && access?.[1] !== undefined) {
    const token = decodeURIComponent(access[1]);
    if (peer.refusal(token) !== null) return { status: 404, body: { status: 'error', message: 'Token not found', correlationId: crypto.randomUUID() } };
    return {
      status: 200,
      body: { token, user: 'owner@acme.example', hub_domain: peer.hubDomain, scopes: peer.scopes, hub_id: peer.hubId, app_id: peer.appId, expires_in: peer.expiresIn, user_id: 42, token_type: 'access' },
    };
  }
  const refresh = /^\/oauth\/v1\/refresh-tokens\/([^/]+)$/.exec(url.pathname);
  if (method === 'DELETE' && refresh?.[1] !== undefined) {
    return peer.revoke(decodeURIComponent(refresh[1])) ? { status: 204 } : { status: 404, body: { status: 'error', message: 'Refresh token not found', correlationId: crypto.randomUUID() } };
  }
  return { status: 404, body: { status: 'error', message: `no such endpoint: ${method} ${url.pathname}` } };
}
