import net from 'node:net';
import * as oidc from 'openid-client';
import { startTestServer, type TestServer } from './server.js';
import type { TestDatabaseKind } from './databases.js';

/** A port free right now, so PUBLIC_URL (and with it the issuer URL) can name it before the server starts. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => {
        resolve(port);
      });
    });
  });
}

/**
 * The web role on a known port whose PUBLIC_URL is its own address, as a deployment would be. Tests stand
 * in for a reverse proxy on loopback (their requests carry X-Forwarded-For, so rate limits per address keep
 * apart), so it trusts loopback's forwarded headers unless `env` says otherwise.
 */
export async function startIssuerServer(kind: TestDatabaseKind, env: Record<string, string> = {}): Promise<TestServer> {
  const port = await freePort();
  return startTestServer(kind, { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, SERVICES: 'web', TRUST_PROXY: 'loopback', ...env });
}

/** openid-client's view of an issuer over plain HTTP (tests only). */
export function discover(issuer: string, clientId: string, auth: oidc.ClientAuth = oidc.None()): Promise<oidc.Configuration> {
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- test issuers listen on plain HTTP
  return oidc.discovery(new URL(issuer), clientId, undefined, auth, { execute: [oidc.allowInsecureRequests] });
}

/** A browser's cookies for one host, enough for the issuer's session and interaction cookies. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

export interface Browser {
  jar: CookieJar;
  /** GETs (or POSTs a form to) a URL and follows redirects until a page answers or `stopAt` is reached. */
  visit(url: string, form?: Record<string, string>): Promise<{ url: string; status: number; body: string }>;
}

export function browser(stopAt: string): Browser {
  const jar = new CookieJar();
  return {
    jar,
    async visit(start, form) {
      let url = start;
      let init: RequestInit | undefined =
        form === undefined
          ? undefined
          : { method: 'POST', body: new URLSearchParams(form), headers: { 'content-type': 'application/x-www-form-urlencoded' } };
      for (let hop = 0; hop < 20; hop++) {
        if (url.startsWith(stopAt)) return { url, status: 0, body: '' };
        const response = await fetch(url, {
          ...init,
          redirect: 'manual',
          headers: { ...(init?.headers as Record<string, string> | undefined), cookie: jar.header() },
        });
        jar.store(response);
        const location = response.headers.get('location');
        if (response.status >= 300 && response.status < 400 && location !== null) {
          url = new URL(location, url).toString();
          init = undefined;
          await response.body?.cancel();
          continue;
        }
        return { url, status: response.status, body: await response.text() };
      }
      throw new Error(`too many redirects from ${start}`);
    },
  };
}

export interface SignInResult {
  tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
}

/**
 * The web app's sign-in: authorization code with PKCE. Opens the authorization URL, fills the sign-in
 * form, follows the redirects back to the callback and exchanges the code.
 */
export async function signInWithPkce(
  config: oidc.Configuration,
  redirectUri: string,
  credentials: { email: string; password: string },
): Promise<SignInResult> {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const authorizationUrl = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid profile email offline_access',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  });
  const b = browser(redirectUri);
  const form = await b.visit(authorizationUrl.toString());
  if (!form.body.includes('name="password"')) throw new Error(`no sign-in form at ${form.url}: ${form.body}`);
  const back = await b.visit(form.url, credentials);
  if (!back.url.startsWith(redirectUri)) throw new Error(`sign-in did not return to the app (${back.status}): ${back.body}`);
  const tokens = await oidc.authorizationCodeGrant(config, new URL(back.url), {
    pkceCodeVerifier: verifier,
    expectedState: state,
  });
  return { tokens };
}
