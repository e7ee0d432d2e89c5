import type { Logger } from 'pino';
import type { Account, Configuration, KoaContextWithOIDC, Provider } from 'oidc-provider';
import type { Config } from '../../../platform/config.js';
import type { Database } from '../../../platform/db/client.js';
import { findUserById } from '../users.js';
import { payloadAdapterFactory } from './adapter.js';
import { findApiClient, secretMatches } from './apiClients.js';
import { SECRET_VERSION_CLAIM, secretVersionOf } from './apiClientSecrets.js';
import { escapeHtml, issuerPage, messagePage } from './html.js';
import type { IssuerKeys } from './keys.js';

/** Where the issuer is mounted in the app; its issuer URL is `${PUBLIC_URL}/oidc`. */
export const ISSUER_PATH = '/oidc';
export const INTERACTION_PATH = `${ISSUER_PATH}/interaction`;

/**
 * Submits the provider's logout form with logout=yes, as the Sign out button would. A file of its own
 * (served by routes.ts), not inline: the Content-Security-Policy runs no inline script.
 */
export const AUTO_SUBMIT_LOGOUT_SCRIPT =
  "const f=document.getElementById('op.logoutForm');const i=document.createElement('input');" +
  "i.type='hidden';i.name='logout';i.value='yes';f.appendChild(i);f.submit();\n";
export const AUTO_SUBMIT_LOGOUT_PATH = `${ISSUER_PATH}/sign-out.js`;

const ACCESS_TOKEN_TTL = 60 * 60;
const API_CLIENT_TOKEN_TTL = 60 * 60;

async function findAccount(database: Database, sub: string): Promise<Account | undefined> {
  const user = await findUserById(database.db, sub);
  if (!user) return undefined;
  return {
    accountId: user.id,
    claims: () => ({
      sub: user.id,
      email: user.email,
      email_verified: user.emailVerifiedAt !== null,
      given_name: user.firstName,
      family_name: user.lastName,
      name: `${user.firstName} ${user.lastName}`.trim(),
    }),
  };
}

/** The person claims that go into a user's access token (the ID token's email and profile claims). */
async function personClaims(database: Database, sub: string): Promise<Record<string, unknown> | undefined> {
  const user = await findUserById(database.db, sub);
  if (!user) return undefined;
  return {
    email: user.email,
    email_verified: user.emailVerifiedAt !== null,
    given_name: user.firstName,
    family_name: user.lastName,
  };
}

function renderError(ctx: KoaContextWithOIDC, out: { error: string; error_description?: string | undefined }): void {
  ctx.type = 'html';
  ctx.body = issuerPage(
    'Sign-in problem',
    `<h1>Something went wrong</h1>\n<p>${escapeHtml(out.error_description ?? out.error)}</p>\n<p><a href="/">Back to Parley</a></p>`,
  );
}

export interface IssuerOptions {
  config: Config;
  database: Database;
  keys: IssuerKeys;
  log: Logger;
}

/**
 * The embedded OpenID Connect issuer (oidc-provider), configured for the web app and API clients. The library
 * is loaded here, when a process serves the issuer, not by every importer of identity (the CLI does not need it).
 */
export async function createIssuer({ config, database, keys, log }: IssuerOptions): Promise<Provider> {
  const { Provider: OidcProvider, errors } = await import('oidc-provider');
  const { publicUrl } = config;
  const { audience, clientId } = config.identity;
  const appOrigin = new URL(publicUrl).origin;
  // Other Parley web apps whose OIDC_ISSUER is this issuer (OIDC_EXTRA_WEB_ORIGINS) share the web client.
  const extraOrigins = config.identity.extraWebOrigins;

  const configuration: Configuration = {
    adapter: payloadAdapterFactory(database),
    clients: [
      {
        client_id: clientId,
        client_name: 'Parley',
        application_type: 'web',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: [publicUrl, ...extraOrigins].flatMap((app) => [`${app}/callback`, `${app}/silent-renew`]),
        post_logout_redirect_uris: [publicUrl, ...extraOrigins].map((app) => `${app}/logout`),
      },
    ],
    jwks: { keys: keys.jwks },
    cookies: {
      keys: keys.cookieKeys,
      long: { httpOnly: true, sameSite: 'lax' },
      short: { httpOnly: true, sameSite: 'lax' },
    },
    scopes: ['openid', 'profile', 'email', 'offline_access'],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['given_name', 'family_name', 'name'],
    },
    pkce: { required: () => true },
    // `idp_hint=<provider id>` skips the sign-in page and goes to that social provider (routes.ts).
    extraParams: ['idp_hint'],
    clientBasedCORS: (_ctx, origin) => origin === appOrigin || extraOrigins.includes(origin),
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      revocation: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        // `form` is the issuer's own hidden form (with its CSRF value), not user input.
        logoutSource: (ctx, form) => {
          // With a valid id_token_hint (the provider has checked it) the app itself asked to sign out:
          // no second question. Without one, a link from anywhere must not sign the user out unasked.
          const hinted = typeof ctx.oidc.params?.id_token_hint === 'string';
          const button = '<button type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>Sign out</button>';
          ctx.body = hinted
            ? issuerPage(
                'Sign out',
                `<h1>Signing out…</h1>\n${form}\n<noscript>${button}</noscript>\n<script src="${AUTO_SUBMIT_LOGOUT_PATH}"></script>`,
              )
            : issuerPage('Sign out', `<h1>Sign out of Parley?</h1>\n${form}\n${button}`);
        },
        postLogoutSuccessSource: (ctx) => {
          ctx.body = messagePage('Signed out', 'You have signed out of Parley.');
        },
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => audience,
        // The code and refresh grants then give an access token for the API, not for userinfo.
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resourceIndicator) => {
          if (resourceIndicator !== audience) throw new errors.InvalidTarget();
          return { scope: 'api', audience, accessTokenFormat: 'jwt', accessTokenTTL: ACCESS_TOKEN_TTL };
        },
      },
    },
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL,
      ClientCredentials: API_CLIENT_TOKEN_TTL,
      AuthorizationCode: 60,
      IdToken: 60 * 60,
      Interaction: 60 * 60,
      Grant: 30 * 24 * 60 * 60,
      Session: 30 * 24 * 60 * 60,
      RefreshToken: 30 * 24 * 60 * 60,
    },
    // Without offline_access (which OpenID Connect only honours with prompt=consent) the web app still
    // gets a rotating refresh token; it ends with the issuer session (expiresWithSession).
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    findAccount: (_ctx, sub) => findAccount(database, sub),
    extraTokenClaims: async (_ctx, token) => {
      // A person's access token names them, so an API that trusts this issuer from outside (a Parley
      // with OIDC_ISSUER set here) can provision the user it stands for.
      if (token.kind === 'AccessToken') return personClaims(database, token.accountId);
      if (token.clientId === undefined) return undefined;
      const client = await findApiClient(database.db, token.clientId);
      return client ? { account_id: client.accountId, [SECRET_VERSION_CLAIM]: secretVersionOf(client.secretHash) } : undefined;
    },
    interactions: { url: (_ctx, interaction) => `${INTERACTION_PATH}/${interaction.uid}` },
    renderError,
  };

  const provider = new OidcProvider(config.identity.issuer, configuration);
  // Behind PUBLIC_URL's reverse proxy: trust X-Forwarded-Proto/Host for URLs and secure cookies.
  provider.proxy = true;
  // API clients' metadata carries the hash of their secret, not the secret (see apiClients.ts).
  provider.Client.prototype.compareClientSecret = function compareClientSecret(actual: string) {
    return this.clientSecret !== undefined && secretMatches(this.clientSecret, actual);
  };
  provider.on('server_error', (_ctx: KoaContextWithOIDC, error: Error) => {
    log.error({ err: error }, 'issuer error');
  });
  return provider;
}
