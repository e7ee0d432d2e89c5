import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Provider } from 'oidc-provider';

/** The social provider the browser tests sign in with: its button reads 'Continue with Test ID'. */
export const e2eSocial = { id: 'testid', name: 'Test ID' };

/**
 * A stand-in for Google: oidc-provider with its development sign-in form, where the login typed is
 * the subject and, when it looks like one, a verified email address. In memory, for one test run.
 */
export async function startUpstreamIssuer(redirectUri: string): Promise<{ providers: string; close: () => Promise<void> }> {
  let callback: ReturnType<Provider['callback']> | null = null;
  const server = http.createServer((req, res) => {
    if (callback) void callback(req, res);
    else res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  const client = { client_id: 'parley-e2e', client_secret: 'parley-e2e-upstream-secret-0123456789' };
  const provider = new Provider(issuer, {
    clients: [{ ...client, redirect_uris: [redirectUri], grant_types: ['authorization_code'] }],
    cookies: { keys: ['e2e-upstream'], names: { session: '_up_session', interaction: '_up_interaction', resume: '_up_resume' } },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'] },
    findAccount: (_ctx, sub) => ({
      accountId: sub,
      claims: () => ({ sub, ...(sub.includes('@') ? { email: sub, email_verified: true } : {}), given_name: 'Sol', family_name: 'Social' }),
    }),
    // No consent screen at the stand-in: Parley gets the scopes it asks for.
    loadExistingGrant: async (ctx) => {
      const { session, params } = ctx.oidc;
      if (!session?.accountId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: client.client_id, accountId: session.accountId });
      grant.addOIDCScope(typeof params?.scope === 'string' ? params.scope : 'openid');
      await grant.save();
      return grant;
    },
  });
  callback = provider.callback();
  const providers = JSON.stringify([{ ...e2eSocial, issuer, clientId: client.client_id, clientSecret: client.client_secret }]);
  return { providers, close: () => new Promise((resolve) => server.close(() => { resolve(); })) };
}
