import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { importJWK, SignJWT, generateKeyPair } from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../../platform/db/schema/index.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import type { TestServer } from '../../../test/server.js';
import { SIGN_IN_FAILED_MESSAGE } from '../signIn.js';
import { createUser } from '../users.js';
import { registerApiClient } from './apiClients.js';
import { loadIssuerKeys } from './keys.js';
import { browser, discover, signInWithPkce, startIssuerServer } from '../../../test/identity.js';

/** An API client's token names its secret's version (apiClientSecrets.ts). */
const anySecretVersion: unknown = expect.stringMatching(/^[0-9a-f]{16}$/);

describe.each(testDatabaseKinds)('embedded issuer (%s)', (kind) => {
  let server: TestServer;
  let issuer: string;
  let audience: string;
  let callback: string;
  let userId: string;
  const email = 'alice@example.com';
  const password = 'correct horse battery staple';
  const apiClient = { clientId: `api-${randomUUID()}`, secret: 'a'.repeat(16) + randomUUID(), accountId: randomUUID() };

  beforeAll(async () => {
    server = await startIssuerServer(kind);
    ({ issuer, audience } = server.config.identity);
    callback = `${server.config.publicUrl}/callback`;
    userId = (await createUser(server.database.db, { email: 'Alice@Example.com', password, firstName: 'Alice' })).id;
    await registerApiClient(server.database.db, apiClient);
  });
  afterAll(async () => {
    await server.stop();
  });

  it('publishes discovery and JWKS under /oidc', async () => {
    const config = await discover(issuer, 'parley-web');
    const metadata = config.serverMetadata();
    expect(metadata.issuer).toBe(issuer);
    expect(metadata.jwks_uri).toBe(`${issuer}/jwks`);
    expect(metadata.code_challenge_methods_supported).toContain('S256');
    expect(metadata.grant_types_supported).toEqual(
      expect.arrayContaining(['authorization_code', 'refresh_token', 'client_credentials']),
    );
    const jwks = (await (await fetch(`${issuer}/jwks`)).json()) as { keys: Record<string, unknown>[] };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).not.toHaveProperty('d');
  });

  it('signs the web app in with PKCE, refreshes, and the API accepts its tokens', async () => {
    const config = await discover(issuer, 'parley-web');
    const { tokens } = await signInWithPkce(config, callback, { email: 'ALICE@example.com', password });
    expect(tokens.refresh_token).toBeTruthy();
    expect(tokens.claims()).toMatchObject({ sub: userId, email, given_name: 'Alice', email_verified: false });

    const principal = await server.authenticator.authenticate(tokens.access_token);
    expect(principal).toEqual({ userId, accountIds: [] });

    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token ?? '');
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(await server.authenticator.authenticate(refreshed.access_token)).toEqual({ userId, accountIds: [] });
  });

  it('rotates refresh tokens, and a refresh token used twice ends the whole grant', async () => {
    // What keeping the web app's tokens in localStorage relies on (docs/identity.md).
    const config = await discover(issuer, 'parley-web');
    const { tokens } = await signInWithPkce(config, callback, { email, password });
    const first = tokens.refresh_token ?? '';
    const rotated = await oidc.refreshTokenGrant(config, first);
    expect(rotated.refresh_token).toBeTruthy();
    expect(rotated.refresh_token).not.toBe(first);
    // The first token again (a copy taken before the rotation): refused, and the grant is gone...
    await expect(oidc.refreshTokenGrant(config, first)).rejects.toMatchObject({ error: 'invalid_grant' });
    // ...so the rotated token, whoever holds it, is refused too.
    await expect(oidc.refreshTokenGrant(config, rotated.refresh_token ?? '')).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('requires PKCE from the web app', async () => {
    const config = await discover(issuer, 'parley-web');
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: callback, scope: 'openid' });
    const page = await browser(callback).visit(url.toString());
    const answer = new URL(page.url);
    expect(answer.searchParams.get('error')).toBe('invalid_request');
    expect(answer.searchParams.get('error_description')).toMatch(/PKCE/);
  });

  it('gives API clients tokens for their account (client_credentials)', async () => {
    const config = await discover(issuer, apiClient.clientId, oidc.ClientSecretBasic(apiClient.secret));
    const tokens = await oidc.clientCredentialsGrant(config);
    expect(await server.authenticator.authenticate(tokens.access_token)).toEqual({
      userId: apiClient.clientId,
      clientId: apiClient.clientId,
      accountIds: [apiClient.accountId],
      secretVersion: anySecretVersion,
    });

    const wrong = await discover(issuer, apiClient.clientId, oidc.ClientSecretBasic(`${apiClient.secret}x`));
    await expect(oidc.clientCredentialsGrant(wrong)).rejects.toMatchObject({ status: 401 });
  });

  it('refuses forged, expired and foreign tokens', async () => {
    const keys = await loadIssuerKeys(server.database, server.config.secrets);
    const [jwk] = keys.jwks;
    if (!jwk) throw new Error('no key');
    const realKey = await importJWK(jwk, 'RS256');
    const now = Math.floor(Date.now() / 1000);
    type SigningKey = Parameters<SignJWT['sign']>[0];
    const token = (claims: Record<string, unknown>, key: SigningKey = realKey, kid = jwk.kid) =>
      new SignJWT({ sub: userId, iss: issuer, aud: audience, iat: now, exp: now + 300, ...claims })
        .setProtectedHeader({ alg: 'RS256', kid: kid ?? '' })
        .sign(key);

    expect(await server.authenticator.authenticate(await token({}))).toEqual({ userId, accountIds: [] });
    const { privateKey: otherKey } = await generateKeyPair('RS256');
    expect(await server.authenticator.authenticate(await token({}, otherKey))).toBeNull();
    expect(await server.authenticator.authenticate(await token({ exp: now - 3600, iat: now - 7200 }))).toBeNull();
    expect(await server.authenticator.authenticate(await token({ aud: 'https://elsewhere.example/v1' }))).toBeNull();
    expect(await server.authenticator.authenticate(await token({ iss: 'https://elsewhere.example' }))).toBeNull();
    expect(await server.authenticator.authenticate('not a token')).toBeNull();
  });

  it('answers one generic message for a wrong password or an unknown email', async () => {
    const config = await discover(issuer, 'parley-web');
    for (const credentials of [
      { email, password: 'wrong password' },
      { email: 'nobody@example.com', password },
    ]) {
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: callback,
        scope: 'openid',
        code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
        code_challenge_method: 'S256',
      });
      const b = browser(callback);
      const form = await b.visit(url.toString());
      const answer = await b.visit(form.url, { ...credentials, email: `${credentials.email}"><script>` });
      expect(answer.status).toBe(401);
      expect(answer.body).toContain(SIGN_IN_FAILED_MESSAGE.replace("'", '&#39;'));
      expect(answer.body).not.toContain('<script>');
    }
    await server.database.db.update(users).set({ failedSignIns: 0 }).where(eq(users.id, userId));
  });

  it('locks a user for 15 minutes after 5 wrong passwords, with the same message', async () => {
    const bob = await createUser(server.database.db, { email: 'bob@example.com', password });
    const config = await discover(issuer, 'parley-web');
    const attempt = async (pw: string) => {
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: callback,
        scope: 'openid',
        code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
        code_challenge_method: 'S256',
      });
      const b = browser(callback);
      const form = await b.visit(url.toString());
      return b.visit(form.url, { email: 'bob@example.com', password: pw });
    };
    for (let i = 0; i < 5; i++) expect((await attempt('nope')).status).toBe(401);
    const locked = await attempt(password);
    expect(locked.status).toBe(401);
    expect(locked.body).toContain('Wrong email or password.');
    const [row] = await server.database.db.select().from(users).where(eq(users.id, bob.id));
    expect(row?.lockedUntil?.getTime()).toBeGreaterThan(Date.now() + 14 * 60_000);

    await server.database.db
      .update(users)
      .set({ lockedUntil: new Date(Date.now() - 1000) })
      .where(eq(users.id, bob.id));
    expect((await attempt(password)).url).toMatch(/\/callback\?code=/);
  });

  // Last in this file: it uses up the test address's allowance of failures.
  it('counts only failed sign-ins against an address, then refuses it for a while', async () => {
    const config = await discover(issuer, 'parley-web');
    const attempt = async (credentials: { email: string; password: string }) => {
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: callback,
        scope: 'openid',
        code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
        code_challenge_method: 'S256',
      });
      const b = browser(callback);
      const form = await b.visit(url.toString());
      return b.visit(form.url, credentials);
    };
    // More successes than the allowance of failures: none of them counts.
    for (let i = 0; i < 25; i++) expect((await attempt({ email, password })).url).toMatch(/\/callback\?code=/);
    // Failures spread over unknown addresses, so no user's own lockout is what refuses. Earlier tests
    // here failed a few times already, so the allowance left is at most 20 and, with successes not
    // counted, more than none.
    let failures = 0;
    for (;;) {
      const answer = await attempt({ email: `nobody-${String(failures)}@example.com`, password });
      if (answer.status === 429) break;
      expect(answer.status).toBe(401);
      failures += 1;
      expect(failures).toBeLessThanOrEqual(20);
    }
    expect(failures).toBeGreaterThan(0);
    const refused = await attempt({ email, password });
    expect(refused.status).toBe(429);
    expect(refused.body).toContain('Too many sign-in attempts');
  });

  it('tells the web app where to sign in', async () => {
    const res = await fetch(`${server.baseUrl}/v1/config`);
    const body = (await res.json()) as { auth: unknown };
    expect(body.auth).toEqual({ issuer, clientId: 'parley-web', scopes: 'openid profile email offline_access', socialProviders: [] });
  });
});
