import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oidc from 'openid-client';
import { browser, discover, freePort } from '../../test/identity.js';
import { startTestServer, type TestServer } from '../../test/server.js';
import { createUser } from '../../modules/identity/users.js';
import { ServerResponse, IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import helmet from 'helmet';
import { contentSecurityPolicyDirectives, securityHeaderOptions, securityHeaderSet, serializePolicy, stripeSources } from './securityHeaders.js';

const embedded = (publicUrl: string, extraWebOrigins: string[] = [], provider: 'sandbox' | 'stripe' = 'sandbox') => ({
  publicUrl,
  identity: { issuer: `${publicUrl}/oidc`, embedded: true, extraWebOrigins },
  billing: { payments: { provider } },
});

/** A built web app's index.html, as Vite writes it: one module script, one inline style. */
function webDist(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-web-dist-'));
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html><head><style>body{margin:0}</style><script type="module" src="/assets/index.js"></script></head><body><div id="root"></div></body></html>',
  );
  return dir;
}

/** The headers every answer must carry, whatever answered it. */
function expectHardened(res: Response, what: string): void {
  const csp = res.headers.get('content-security-policy') ?? '';
  expect(csp, what).toContain("frame-ancestors 'none'");
  expect(csp, what).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(csp, what).not.toContain("'unsafe-eval'");
  expect(res.headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(res.headers.get('x-frame-options'), what).toBe('DENY');
  expect(res.headers.get('referrer-policy'), what).toBe('no-referrer');
}

describe('the Content-Security-Policy', () => {
  it('lets the app load its own scripts only, and reach its server', () => {
    const policy = serializePolicy(contentSecurityPolicyDirectives(embedded('http://localhost:3000')));
    expect(policy).toBe(
      "default-src 'self'; script-src 'self'; script-src-attr 'none'; style-src 'self' 'unsafe-inline'; " +
        "img-src 'self' http://localhost:3000 data: blob: https:; font-src 'self' data:; " +
        "connect-src 'self' http://localhost:3000 ws://localhost:3000; worker-src 'self'; manifest-src 'self'; " +
        "object-src 'none'; base-uri 'self'; form-action 'self' http://localhost:3000; frame-ancestors 'none'",
    );
  });

  it('reaches an external issuer, lets sign-out end on other Parley apps, and upgrades behind https', () => {
    const external = contentSecurityPolicyDirectives({
      publicUrl: 'https://sms.example.com',
      identity: { issuer: 'https://id.example.com/realms/parley', embedded: false, extraWebOrigins: [] },
      billing: { payments: { provider: 'sandbox' } },
    });
    expect(external['connect-src']).toEqual(["'self'", 'https://sms.example.com', 'wss://sms.example.com', 'https://id.example.com']);
    expect(external['upgrade-insecure-requests']).toEqual([]);
    const issuerOfOthers = contentSecurityPolicyDirectives(embedded('https://a.example.com', ['https://b.example.com']));
    expect(issuerOfOthers['form-action']).toEqual(["'self'", 'https://a.example.com', 'https://b.example.com']);
    expect(issuerOfOthers['connect-src']).not.toContain('https://b.example.com');
  });
});

describe('the Content-Security-Policy and Stripe.js', () => {
  const stripeHosts = /stripe\.com/;

  it('allows none of Stripe.js with the sandbox', () => {
    const policy = serializePolicy(contentSecurityPolicyDirectives(embedded('https://sms.example.com')));
    expect(policy).not.toMatch(stripeHosts);
    expect(contentSecurityPolicyDirectives(embedded('https://sms.example.com'))['frame-src']).toBeUndefined();
  });

  it("allows Stripe.js's script, frames and API with Stripe, and nothing more", () => {
    const sandbox = contentSecurityPolicyDirectives(embedded('https://sms.example.com'));
    const stripe = contentSecurityPolicyDirectives(embedded('https://sms.example.com', [], 'stripe'));
    expect(stripe['script-src']).toEqual(["'self'", 'https://js.stripe.com', 'https://*.js.stripe.com']);
    expect(stripe['frame-src']).toEqual(['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com']);
    expect(stripe['connect-src']).toEqual(["'self'", 'https://sms.example.com', 'wss://sms.example.com', 'https://api.stripe.com']);
    const others = (directives: Record<string, string[]>) =>
      Object.fromEntries(Object.entries(directives).filter(([name]) => !['script-src', 'frame-src', 'connect-src'].includes(name)));
    expect(others(stripe)).toEqual(others(sandbox));
  });
});

describe('the Content-Security-Policy and an external feature board', () => {
  it("frames the board's origin only, beside Stripe's frames", () => {
    const board = { featureBoard: { url: 'https://board.example.com/b/feature-requests?x=1' } };
    expect(contentSecurityPolicyDirectives({ ...embedded('https://sms.example.com'), ...board })['frame-src']).toEqual(['https://board.example.com']);
    expect(contentSecurityPolicyDirectives({ ...embedded('https://sms.example.com', [], 'stripe'), ...board })['frame-src']).toEqual([
      ...stripeSources['frame-src'],
      'https://board.example.com',
    ]);
    expect(contentSecurityPolicyDirectives({ ...embedded('https://sms.example.com'), featureBoard: { url: null } })['frame-src']).toBeUndefined();
  });
});

describe('the headers worked out once', () => {
  it('are what helmet writes on a response itself, for plain http and for https', () => {
    for (const publicUrl of ['http://127.0.0.1:3000', 'https://sms.example.com']) {
      const options = securityHeaderOptions(embedded(publicUrl));
      const request = new IncomingMessage(new Socket());
      const response = new ServerResponse(request);
      response.setHeader('x-powered-by', 'something');
      helmet(options)(request, response, () => undefined);
      const { set, removed } = securityHeaderSet(options);
      expect(Object.fromEntries(set.map(([name, value]) => [name.toLowerCase(), value])), publicUrl).toEqual(response.getHeaders());
      expect(removed, publicUrl).toContain('X-Powered-By');
      expect(set.length, publicUrl).toBeGreaterThanOrEqual(10);
    }
  });

  it('refuses options helmet refuses, at start rather than on a request', () => {
    expect(() => securityHeaderSet({ referrerPolicy: { policy: 'sometimes' as 'no-referrer' } })).toThrow();
  });
});

describe('security headers on every kind of answer', () => {
  let server: TestServer;
  let publicUrl: string;
  const credentials = { email: 'hedda@example.test', password: 'a long enough password' };

  beforeAll(async () => {
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${String(port)}`;
    server = await startTestServer('pglite', { PORT: String(port), PUBLIC_URL: publicUrl, SERVICES: 'web' }, { webDist: webDist() });
    await createUser(server.database.db, { ...credentials, emailVerified: true, firstName: 'Hedda' });
  });
  afterAll(async () => {
    await server.stop();
  });

  const get = (url: string) => fetch(new URL(url, publicUrl), { redirect: 'manual' });

  it('the web app: its policy, and no HSTS over plain http', async () => {
    for (const url of ['/', '/campaigns', '/no/such/page']) {
      const res = await get(url);
      expect(res.headers.get('content-type'), url).toContain('text/html');
      expectHardened(res, url);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self';");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("base-uri 'self'");
      expect(csp).toContain(`connect-src 'self' ${publicUrl} ws://127.0.0.1:`);
      // The sandbox's deployment loads nothing of Stripe's.
      expect(csp).not.toContain('stripe.com');
      expect(res.headers.get('strict-transport-security'), url).toBeNull();
    }
  });

  it('the API: answers, errors and redirects', async () => {
    for (const url of ['/v1/config', '/v1/openapi.json', '/v1/nothing-here', '/v1/accounts', '/healthz', '/v1/verify?token=x']) {
      expectHardened(await get(url), url);
    }
  });

  it('the sign-in pages: their stricter policy, and the provider’s own answers', async () => {
    for (const url of ['/oidc/forgot', '/oidc/reset?token=x', '/oidc/interaction/unknown']) {
      const res = await get(url);
      expectHardened(res, url);
      expect(res.headers.get('content-security-policy'), url).toBe(
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
      );
    }
    // Answered by oidc-provider on the raw response, past Fastify's reply.
    for (const url of ['/oidc/.well-known/openid-configuration', '/oidc/jwks', '/oidc/auth?client_id=nobody', '/oidc/session/end']) {
      const res = await get(url);
      expectHardened(res, url);
      expect(res.headers.get('content-security-policy'), url).toMatch(/(^|;)script-src 'self'[ ;]/);
    }
  });

  it('lets the provider run its own inline script by its hash, and that script only', async () => {
    // Without a session, ending one is an auto-submitted form (oidc-provider's form_post page).
    const res = await get('/oidc/session/end');
    const body = await res.text();
    const inline = /<script>([\s\S]*?)<\/script>/.exec(body)?.[1] ?? '';
    expect(inline).toContain('submit()');
    const hash = createHash('sha256').update(inline).digest('base64');
    const scriptSrc = /(?:^|;)\s*script-src ([^;]*)/.exec(res.headers.get('content-security-policy') ?? '')?.[1];
    expect(scriptSrc).toBe(`'self' 'sha256-${hash}'`);
  });

  it('the sign-out page runs no inline script: its script is a file of the issuer', async () => {
    const web = await discover(server.config.identity.issuer, 'parley-web');
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(web, {
      redirect_uri: `${publicUrl}/callback`,
      scope: 'openid',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const b = browser(`${publicUrl}/callback`);
    const form = await b.visit(url.toString());
    const back = await b.visit(form.url, credentials);
    const tokens = await oidc.authorizationCodeGrant(web, new URL(back.url), { pkceCodeVerifier: verifier });
    const page = await fetch(`${publicUrl}/oidc/session/end?id_token_hint=${tokens.id_token ?? ''}`, { headers: { cookie: b.jar.header() } });
    expect(page.status).toBe(200);
    expectHardened(page, 'sign-out');
    expect(page.headers.get('content-security-policy')).toMatch(/(^|;)script-src 'self';/);
    const body = await page.text();
    expect(body).toContain('Signing out');
    expect(body).not.toMatch(/<script>/);
    const src = /<script src="([^"]+)"><\/script>/.exec(body)?.[1] ?? '';
    expect(src).toBe('/oidc/sign-out.js');
    const script = await get(src);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toContain("getElementById('op.logoutForm')");
  });

  it('the API reference at /docs', async () => {
    for (const url of ['/docs', '/docs/', '/docs/static/index.css', '/docs/static/swagger-initializer.js']) {
      const res = await get(url);
      expect(res.status, url).toBeLessThan(400);
      expectHardened(res, url);
      expect(res.headers.get('content-security-policy'), url).toContain("script-src 'self';");
    }
  });
});

describe('HSTS', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite', { PUBLIC_URL: 'https://sms.example.com', SERVICES: 'web' }, { webDist: webDist() });
  });
  afterAll(async () => {
    await server.stop();
  });

  it('is sent, with upgrade-insecure-requests, when PUBLIC_URL is https', async () => {
    for (const url of ['/', '/v1/config', '/oidc/forgot', '/docs/']) {
      const res = await fetch(`${server.baseUrl}${url}`, { redirect: 'manual' });
      expect(res.headers.get('strict-transport-security'), url).toBe('max-age=31536000; includeSubDomains');
      expectHardened(res, url);
    }
    const app = await fetch(`${server.baseUrl}/`);
    expect(app.headers.get('content-security-policy')).toContain('upgrade-insecure-requests');
    expect(app.headers.get('content-security-policy')).toContain('connect-src \'self\' https://sms.example.com wss://sms.example.com');
  });
});
