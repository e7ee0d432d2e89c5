import crypto from 'node:crypto';
import type { PeerAnswer } from './hubspotPeerCrm.js';
import type { HubSpotPeerState } from './hubspotPeerState.js';

/*
 * HubSpot's dated OAuth API as its reference documents it: POST /oauth/2026-03/token, /token/introspect and
 * /token/revoke, every parameter form-encoded in the body. The v1 endpoints (ended 16 February 2027) answer
 * 404 here, so a return to them fails the tests.
 */

/** HubSpot's OAuth error body (its own status and message, and the RFC 6749 fields). */
const oauthError = (status: string, message: string, error = 'invalid_grant'): PeerAnswer => ({
  status: 400,
  body: { status, message, error, error_description: message, correlationId: crypto.randomUUID() },
});

/** The client credentials every endpoint takes in the body; an error answer when they are wrong. */
function clientRefusal(peer: HubSpotPeerState, form: URLSearchParams): PeerAnswer | null {
  if (form.get('client_id') !== peer.clientId) return oauthError('BAD_CLIENT_ID', 'missing or invalid client_id', 'invalid_client');
  if (form.get('client_secret') !== peer.clientSecret) return oauthError('BAD_CLIENT_SECRET', 'missing or invalid client_secret', 'invalid_client');
  return null;
}

const tokenBody = (peer: HubSpotPeerState, refreshToken?: string): PeerAnswer => ({
  status: 200,
  body: { token_use: 'access_token', ...peer.issueTokens(refreshToken), hub_id: peer.hubId, scopes: peer.scopes, user_id: 42 },
});

function tokenGrant(peer: HubSpotPeerState, form: URLSearchParams): PeerAnswer {
  peer.tokenRequests.push(form);
  const refused = clientRefusal(peer, form);
  if (refused !== null) return refused;
  switch (form.get('grant_type')) {
    case 'authorization_code': {
      const redirectUri = peer.takeCode(form.get('code') ?? '');
      if (redirectUri === null) return oauthError('BAD_AUTH_CODE', 'missing or unknown auth code');
      if (form.get('redirect_uri') !== redirectUri) return oauthError('BAD_REDIRECT_URI', 'redirect_uri does not match initial auth request');
      return tokenBody(peer);
    }
    case 'refresh_token': {
      const refreshToken = form.get('refresh_token') ?? '';
      if (!peer.knowsRefreshToken(refreshToken)) return oauthError('BAD_REFRESH_TOKEN', 'refresh token is invalid, expired or revoked');
      return tokenBody(peer, refreshToken);
    }
    case null:
    default:
      return oauthError('BAD_GRANT_TYPE', 'unsupported grant_type', 'unsupported_grant_type');
  }
}

/** Token introspection: the documented metadata of a live access token; `active: false` for every other token. */
function introspect(peer: HubSpotPeerState, form: URLSearchParams): PeerAnswer {
  peer.introspectRequests.push(form);
  const refused = clientRefusal(peer, form);
  if (refused !== null) return refused;
  const token = form.get('token') ?? '';
  if (peer.refusal(token) !== null) return { status: 200, body: { active: false } };
  return {
    status: 200,
    body: {
      token_use: 'access_token',
      active: true,
      token,
      hub_id: peer.hubId,
      user_id: 42,
      client_id: peer.clientId,
      app_id: peer.appId,
      scopes: peer.scopes,
      expires_in: peer.expiresIn,
      is_private_distribution: false,
      token_type: 'bearer',
      user: 'owner@acme.example',
      hub_domain: peer.hubDomain,
    },
  };
}

/** Revoke: the refresh token and the access tokens made with it end; an unknown token is HubSpot's 400. */
function revoke(peer: HubSpotPeerState, form: URLSearchParams): PeerAnswer {
  peer.revokeRequests.push(form);
  const refused = clientRefusal(peer, form);
  if (refused !== null) return refused;
  if (peer.revoke(form.get('token') ?? '')) return { status: 200 };
  return { status: 400, body: { category: 'VALIDATION_ERROR', message: 'Token is invalid', correlationId: crypto.randomUUID() } };
}

const notFound = (method: string, path: string): PeerAnswer => ({ status: 404, body: { status: 'error', message: `no such endpoint: ${method} ${path}` } });

/** /oauth/2026-03/token, /oauth/2026-03/token/introspect and /oauth/2026-03/token/revoke (POST, form bodies). */
export function answerOAuth(peer: HubSpotPeerState, method: string, url: URL, body: string): PeerAnswer {
  if (method !== 'POST' || url.search !== '') return notFound(method, url.pathname);
  const form = new URLSearchParams(body);
  switch (url.pathname) {
    case '/oauth/2026-03/token':
      return tokenGrant(peer, form);
    case '/oauth/2026-03/token/introspect':
      return introspect(peer, form);
    case '/oauth/2026-03/token/revoke':
      return revoke(peer, form);
    default:
      return notFound(method, url.pathname);
  }
}
