import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browser, discover, signInWithPkce, startIssuerServer } from '../../../test/identity.js';
import type { TestServer } from '../../../test/server.js';
import { createUser } from '../users.js';

// OIDC_EXTRA_WEB_ORIGINS lets another Parley's web app (whose OIDC_ISSUER is this issuer) use the web client.
describe('the web client for other Parley web apps (OIDC_EXTRA_WEB_ORIGINS)', () => {
  let server: TestServer;
  const otherApp = 'http://other-parley.example.test:8080';
  const credentials = { email: 'olga@example.test', password: 'a long enough password' };

  beforeAll(async () => {
    server = await startIssuerServer('pglite', { OIDC_EXTRA_WEB_ORIGINS: `${otherApp}, ${otherApp}/` });
    await createUser(server.database.db, { ...credentials, emailVerified: true, firstName: 'Olga', lastName: 'Other' });
  });
  afterAll(async () => {
    await server.stop();
  });

  it("signs in for the other app's callback, with the person's claims in the access token", async () => {
    const web = await discover(server.config.identity.issuer, 'parley-web');
    const { tokens } = await signInWithPkce(web, `${otherApp}/callback`, credentials);
    const [, payload = ''] = tokens.access_token.split('.');
    expect(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))).toMatchObject({
      email: credentials.email,
      email_verified: true,
      given_name: 'Olga',
      family_name: 'Other',
    });
  });

  it("lets the sign-in form's submission end on the other app (CSP form-action)", async () => {
    const web = await discover(server.config.identity.issuer, 'parley-web');
    const url = oidc.buildAuthorizationUrl(web, {
      redirect_uri: `${otherApp}/callback`,
      scope: 'openid',
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
    });
    const b = browser(otherApp);
    const form = await b.visit(url.toString());
    expect(form.body).toContain('name="password"');
    const again = await fetch(form.url, { headers: { cookie: b.jar.header() } });
    expect(again.headers.get('content-security-policy')).toContain(`form-action 'self' ${otherApp};`);
  });

  it('refuses an origin it was not given', async () => {
    const web = await discover(server.config.identity.issuer, 'parley-web');
    const url = oidc.buildAuthorizationUrl(web, {
      redirect_uri: 'http://elsewhere.example.test/callback',
      scope: 'openid',
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
    });
    const page = await browser('http://elsewhere.example.test').visit(url.toString());
    expect(page.status).toBe(400);
    expect(page.body).toContain('redirect_uri');
  });

  it("lets the other app's pages call the token endpoint (CORS), and no one else's", async () => {
    const preflight = (origin: string) =>
      fetch(`${server.config.identity.issuer}/token`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
    expect((await preflight(otherApp)).headers.get('access-control-allow-origin')).toBe(otherApp);
    const token = await fetch(`${server.config.identity.issuer}/token`, {
      method: 'POST',
      headers: { origin: 'http://elsewhere.example.test', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: 'x', client_id: 'parley-web', code_verifier: 'y'.repeat(43) }),
    });
    expect(token.headers.get('access-control-allow-origin')).toBeNull();
  });
});
