import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browser, discover, signInWithPkce, startIssuerServer } from '../../../test/identity.js';
import type { TestServer } from '../../../test/server.js';
import { createUser } from '../users.js';

/**
 * The embedded issuer sends the browser only to addresses it registered (the web app's callback and
 * logout page) or made itself (its interaction pages, a configured upstream): no parameter of a request
 * names where it goes next.
 */
describe('where the embedded issuer sends the browser', () => {
  let server: TestServer;
  let publicUrl: string;
  let callback: string;
  const credentials = { email: 'rhea@example.test', password: 'a long enough password' };
  const evil = ['https://evil.example/x', '//evil.example/x', '/.//evil.example/x', '/\\evil.example/x'];

  beforeAll(async () => {
    server = await startIssuerServer('pglite');
    publicUrl = server.config.publicUrl;
    callback = `${publicUrl}/callback`;
    await createUser(server.database.db, { ...credentials, emailVerified: true, firstName: 'Rhea' });
  });
  afterAll(async () => {
    await server.stop();
  });

  /** Every Location the issuer answers along a walk, resolved; the walk stops at the web app. */
  const walk = async (start: string, form?: Record<string, string>, cookie = '') => {
    const seen: string[] = [];
    let url = start;
    let init: RequestInit | undefined =
      form === undefined ? undefined : { method: 'POST', body: new URLSearchParams(form), headers: { 'content-type': 'application/x-www-form-urlencoded' } };
    const jar = new Map<string, string>(cookie === '' ? [] : cookie.split('; ').map((c) => c.split('=', 2) as [string, string]));
    for (let hop = 0; hop < 20 && url.startsWith(`${publicUrl}/oidc/`); hop++) {
      const header = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
      const response = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init?.headers as Record<string, string> | undefined), cookie: header } });
      for (const line of response.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const eq = pair.indexOf('=');
        jar.set(pair.slice(0, eq), pair.slice(eq + 1));
      }
      const location = response.headers.get('location');
      if (location === null) return { seen, url, status: response.status, body: await response.text() };
      url = new URL(location, url).toString();
      seen.push(url);
      init = undefined;
    }
    return { seen, url, status: 0, body: '' };
  };

  it('refuses a redirect_uri that only looks like the web app’s', async () => {
    const web = await discover(server.config.identity.issuer, 'parley-web');
    for (const redirectUri of [`${publicUrl}//evil.example/callback`, `${publicUrl}/callback/..//evil.example`, 'https://evil.example/callback']) {
      const url = oidc.buildAuthorizationUrl(web, {
        redirect_uri: redirectUri,
        scope: 'openid',
        code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
        code_challenge_method: 'S256',
      });
      const answer = await walk(url.toString());
      expect(answer.status, redirectUri).toBe(400);
      expect(answer.seen, redirectUri).toEqual([]);
    }
  });

  it('ends a sign-in on the registered callback, whatever else the request names', async () => {
    const web = await discover(server.config.identity.issuer, 'parley-web');
    const url = oidc.buildAuthorizationUrl(web, {
      redirect_uri: callback,
      scope: 'openid',
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
      redirectTo: evil[0] ?? '',
      return: evil[1] ?? '',
      next: evil[2] ?? '',
      returnTo: evil[3] ?? '',
    });
    const b = browser(callback);
    const form = await b.visit(url.toString());
    expect(form.body).toContain('name="password"');
    const signInPage = new URL(form.url);
    for (const [i, name] of ['redirectTo', 'return', 'next', 'returnTo'].entries()) signInPage.searchParams.set(name, evil[i] ?? '');
    const answer = await walk(signInPage.toString(), credentials, b.jar.header());
    expect(answer.seen.length).toBeGreaterThan(0);
    for (const location of answer.seen) expect(new URL(location).origin).toBe(publicUrl);
    expect(answer.url.startsWith(`${callback}?code=`)).toBe(true);
  });

  it('returns after sign-out only to a registered logout page', async () => {
    const web = await discover(server.config.identity.issuer, 'parley-web');
    const { tokens } = await signInWithPkce(web, callback, credentials);
    const idTokenHint = tokens.id_token ?? '';
    for (const target of [...evil, `${publicUrl}//evil.example/logout`, `${publicUrl}/logout/..//evil.example`]) {
      const url = new URL(`${server.config.identity.issuer}/session/end`);
      url.searchParams.set('id_token_hint', idTokenHint);
      url.searchParams.set('post_logout_redirect_uri', target);
      const answer = await walk(url.toString());
      expect(answer.status, target).toBe(400);
      expect(answer.seen, target).toEqual([]);
    }
  });

  it('sends the password-reset and sign-in pages nowhere a parameter names', async () => {
    for (const path of ['/oidc/forgot', '/oidc/reset', '/oidc/interaction/unknown']) {
      const url = new URL(path, publicUrl);
      url.searchParams.set('redirectTo', evil[0] ?? '');
      url.searchParams.set('next', evil[1] ?? '');
      const answer = await walk(url.toString());
      expect(answer.seen, path).toEqual([]);
      expect(answer.body, path).not.toContain('evil.example');
    }
  });
});
