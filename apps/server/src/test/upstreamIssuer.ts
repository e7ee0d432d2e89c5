import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import { Provider, type KoaContextWithOIDC } from 'oidc-provider';

/** What the upstream knows about a person (its `sub` is the key of `people`). */
export interface UpstreamPerson {
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
}

export interface UpstreamIssuer {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The people who may sign in there, by subject; tests add to it. */
  people: Map<string, UpstreamPerson>;
  close(): Promise<void>;
}

/**
 * A real OpenID Connect issuer standing in for Google and the like: oidc-provider with its development
 * sign-in form (`login` = the subject, any password), one confidential client and no consent screen.
 * Scope claims (email, names) go to userinfo, not the ID token, as oidc-provider does by default.
 */
export async function startUpstreamIssuer(redirectUris: string[]): Promise<UpstreamIssuer> {
  const people = new Map<string, UpstreamPerson>();
  const clientId = 'parley-upstream-client';
  const clientSecret = 'upstream-secret-0123456789abcdef';
  let handler: http.RequestListener = (_req, res) => res.writeHead(503).end();
  const server = http.createServer((req, res) => {
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'upstream' };

  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: redirectUris, grant_types: ['authorization_code'] }],
    jwks: { keys: [jwk] },
    // Its own names, so a test browser that keeps one cookie per name never mixes them with Parley's.
    cookies: {
      keys: ['upstream-cookie-key'],
      names: { session: '_up_session', interaction: '_up_interaction', resume: '_up_interaction_resume' },
    },
    ttl: { Interaction: 600, Session: 600, Grant: 600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'] },
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub, ...people.get(sub) }) }),
    // No consent screen: every client gets what it asked for.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const { session, client, params } = ctx.oidc;
      if (!session?.accountId || !client) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope(typeof params?.scope === 'string' ? params.scope : 'openid');
      await grant.save();
      return grant;
    },
  });
  const callback = provider.callback();
  handler = (req, res) => {
    void callback(req, res);
  };
  return {
    issuer,
    clientId,
    clientSecret,
    people,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

export interface Page {
  url: string;
  status: number;
  body: string;
}

/**
 * A browser for flows across two issuers: one cookie per name (the issuers use different names), a
 * client address of its own (X-Forwarded-For, for the rate limits), and a stop before any URL that
 * starts with one of `stopAt`, so a test can look at (or tamper with) a redirect before following it.
 */
export function twoIssuerBrowser(clientAddress: string) {
  const cookies = new Map<string, string>();
  const store = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) cookies.delete(name);
      else cookies.set(name, value);
    }
  };
  return {
    async visit(start: string, options: { form?: Record<string, string>; stopAt?: string[] } = {}): Promise<Page> {
      let url = start;
      let form = options.form;
      for (let hop = 0; hop < 20; hop++) {
        if (hop > 0 && options.stopAt?.some((prefix) => url.startsWith(prefix)) === true) return { url, status: 0, body: '' };
        const response = await fetch(url, {
          method: form === undefined ? 'GET' : 'POST',
          redirect: 'manual',
          headers: {
            cookie: [...cookies].map(([n, v]) => `${n}=${v}`).join('; '),
            'x-forwarded-for': clientAddress,
            ...(form === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
          },
          ...(form === undefined ? {} : { body: new URLSearchParams(form) }),
        });
        store(response);
        const location = response.headers.get('location');
        if (response.status >= 300 && response.status < 400 && location !== null) {
          url = new URL(location, url).toString();
          form = undefined;
          await response.body?.cancel();
          continue;
        }
        return { url, status: response.status, body: await response.text() };
      }
      throw new Error(`too many redirects from ${start}`);
    },
  };
}
