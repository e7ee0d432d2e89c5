import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageHubSpotContacts } from './hubspotApi.js';
import { HubSpotAuthError } from './hubspotErrors.js';
import { exchangeHubSpotCode, hubspotAuthorizeUrl, refreshHubSpotToken, revokeHubSpotToken } from './hubspotOAuth.js';
import { HubSpotPeer, peerFetch } from './test/hubspotPeer.js';

const peer = new HubSpotPeer();
beforeAll(() => peer.start());
afterAll(() => peer.stop());

const now = new Date('2026-12-02T12:00:00.000Z');

describe('HubSpot OAuth', () => {
  it('sends the user to the configured authorize page with the app, scopes and state', () => {
    const url = new URL(hubspotAuthorizeUrl(peer.app(), 'state-123'));
    expect(`${url.origin}${url.pathname}`).toBe(`${peer.base}/oauth/authorize`);
    expect(url.searchParams.get('client_id')).toBe(peer.clientId);
    expect(url.searchParams.get('redirect_uri')).toBe('https://parley.example/v1/integrations/hubspot/oauth/callback');
    expect(url.searchParams.get('scope')).toBe('oauth crm.objects.contacts.read crm.objects.contacts.write crm.lists.read');
    expect(url.searchParams.get('optional_scope')).toBe('automation');
    expect(url.searchParams.get('state')).toBe('state-123');
    expect(url.search).toContain('scope=oauth%20crm.objects');
  });

  it("takes the user through HubSpot's install page back to the redirect URI with a code and the state", async () => {
    const app = peer.app();
    const page = await (await fetch(hubspotAuthorizeUrl(app, 'state-456'))).text();
    const link = /href="([^"]+)">Connect app/.exec(page)?.[1]?.replaceAll('&amp;', '&') ?? '';
    const back = new URL(link);
    expect(`${back.origin}${back.pathname}`).toBe(app.redirectUri);
    expect(back.searchParams.get('state')).toBe('state-456');
    await expect(exchangeHubSpotCode(peerFetch, app, back.searchParams.get('code') ?? '')).resolves.toMatchObject({ hubId: String(peer.hubId) });
    const foreign = await fetch(hubspotAuthorizeUrl({ ...app, clientId: 'someone-else' }, 's'));
    expect(foreign.status).toBe(400);
  });

  it('exchanges a code for tokens, their expiry and the HubSpot account', async () => {
    const app = peer.app();
    const grant = await exchangeHubSpotCode(peerFetch, app, peer.issueCode(app.redirectUri), now);
    expect(grant.accessToken).toMatch(/^access-/);
    expect(grant.refreshToken).toMatch(/^refresh-/);
    expect(grant.expiresAt.toISOString()).toBe('2026-12-02T12:30:00.000Z');
    expect(grant).toMatchObject({ hubId: String(peer.hubId), hubDomain: peer.hubDomain, scopes: peer.scopes });
    const form = peer.tokenRequests.at(-1);
    expect(form?.get('grant_type')).toBe('authorization_code');
    expect(form?.get('redirect_uri')).toBe(app.redirectUri);
    expect(form?.get('client_secret')).toBe(app.clientSecret);
    expect(peer.introspectRequests.at(-1)?.get('token')).toBe(grant.accessToken);
    await expect(pageHubSpotContacts({ apiBaseUrl: peer.base, accessToken: grant.accessToken }, null)).resolves.toMatchObject({ items: [] });
  });

  it('refuses a tampered, reused or foreign code and a wrong client secret as an auth error', async () => {
    const app = peer.app();
    const code = peer.issueCode(app.redirectUri);
    await expect(exchangeHubSpotCode(peerFetch, app, `${code}x`)).rejects.toBeInstanceOf(HubSpotAuthError);
    await exchangeHubSpotCode(peerFetch, app, code);
    await expect(exchangeHubSpotCode(peerFetch, app, code)).rejects.toMatchObject({ name: 'HubSpotAuthError', status: 400, reason: 'missing or unknown auth code' });
    await expect(exchangeHubSpotCode(peerFetch, { ...app, redirectUri: 'https://evil.example/cb' }, peer.issueCode(app.redirectUri))).rejects.toBeInstanceOf(HubSpotAuthError);
    await expect(exchangeHubSpotCode(peerFetch, { ...app, clientSecret: 'guessed' }, peer.issueCode(app.redirectUri))).rejects.toBeInstanceOf(HubSpotAuthError);
  });

  it('refreshes an access token and reports when the new one expires', async () => {
    const app = peer.app();
    const grant = await exchangeHubSpotCode(peerFetch, app, peer.issueCode(app.redirectUri), now);
    const later = new Date('2026-12-02T13:00:00.000Z');
    const refreshed = await refreshHubSpotToken(peerFetch, app, grant.refreshToken, later);
    expect(refreshed.accessToken).not.toBe(grant.accessToken);
    expect(refreshed.refreshToken).toBe(grant.refreshToken);
    expect(refreshed.expiresAt.toISOString()).toBe('2026-12-02T13:30:00.000Z');
    expect(peer.tokenRequests.at(-1)?.get('grant_type')).toBe('refresh_token');
    await expect(refreshHubSpotToken(peerFetch, app, 'refresh-unknown')).rejects.toMatchObject({ name: 'HubSpotAuthError', reason: 'refresh token is invalid, expired or revoked' });
  });

  it('revokes the refresh token on disconnect: its tokens stop working, and revoking again is no error', async () => {
    const app = peer.app();
    const grant = await exchangeHubSpotCode(peerFetch, app, peer.issueCode(app.redirectUri));
    await revokeHubSpotToken(peerFetch, app, grant.refreshToken);
    await expect(refreshHubSpotToken(peerFetch, app, grant.refreshToken)).rejects.toBeInstanceOf(HubSpotAuthError);
    await expect(pageHubSpotContacts({ apiBaseUrl: peer.base, accessToken: grant.accessToken }, null)).rejects.toBeInstanceOf(HubSpotAuthError);
    await expect(revokeHubSpotToken(peerFetch, app, grant.refreshToken)).resolves.toBeUndefined();
    expect(peer.revokeRequests.at(-1)?.get('token')).toBe(grant.refreshToken);
  });

  it('refuses to revoke with a wrong client secret, the token left working', async () => {
    const app = peer.app();
    const grant = await exchangeHubSpotCode(peerFetch, app, peer.issueCode(app.redirectUri));
    const other = await exchangeHubSpotCode(peerFetch, app, peer.issueCode(app.redirectUri));
    await expect(revokeHubSpotToken(peerFetch, { ...app, clientSecret: 'guessed' }, grant.refreshToken)).rejects.toMatchObject({ name: 'HubSpotAuthError', reason: 'missing or invalid client_secret' });
    await expect(refreshHubSpotToken(peerFetch, app, grant.refreshToken)).resolves.toMatchObject({ refreshToken: grant.refreshToken });
    await expect(refreshHubSpotToken(peerFetch, app, other.refreshToken)).resolves.toBeDefined();
  });

  it('uses only the dated endpoints: the v1 paths are gone, and a token in the query is not read', async () => {
    const app = peer.app();
    const v1 = await fetch(`${peer.base}/oauth/v1/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=refresh_token' });
    expect(v1.status).toBe(404);
    const query = await fetch(`${peer.base}/oauth/2026-03/token?client_id=${app.clientId}`, { method: 'POST', body: '' });
    expect(query.status).toBe(404);
    expect(peer.tokenRequests.every((form) => form.has('client_id'))).toBe(true);
  });

  it('refuses a foreign client on introspection as an auth error', async () => {
    const app = peer.app();
    await expect(exchangeHubSpotCode(peerFetch, { ...app, clientId: 'someone-else' }, peer.issueCode(app.redirectUri))).rejects.toMatchObject({ name: 'HubSpotAuthError', reason: 'missing or invalid client_id' });
  });
});
