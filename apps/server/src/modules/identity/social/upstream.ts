import * as oidc from 'openid-client';
import type { SocialProviderConfig } from '../../../platform/config.js';

/** Seconds an upstream call (discovery, token, userinfo, JWKS) may take. */
const UPSTREAM_TIMEOUT_SECONDS = 10;

/** What the upstream says about the person, from its verified ID token (and userinfo when the ID token is terse). */
export interface UpstreamClaims {
  sub: string;
  email: string | null;
  /** Only a literal true (or "true", which some providers send) counts. */
  emailVerified: boolean;
  givenName: string;
  familyName: string;
}

/** Random values bound to one sign-in attempt, kept on our side until the callback. */
export interface AttemptSecrets {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export class UpstreamError extends Error {
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}

const text = (value: unknown): string => (typeof value === 'string' ? value.trim().slice(0, 100) : '');

function toClaims(source: Record<string, unknown>, sub: string): UpstreamClaims {
  const email = text(source.email);
  let givenName = text(source.given_name);
  let familyName = text(source.family_name);
  if (givenName === '' && familyName === '') {
    const [first = '', ...rest] = text(source.name).split(/\s+/);
    givenName = first;
    familyName = rest.join(' ');
  }
  return {
    sub,
    email: email === '' ? null : email,
    emailVerified: source.email_verified === true || source.email_verified === 'true',
    givenName,
    familyName,
  };
}

/**
 * One configured upstream OpenID Connect provider, seen through openid-client: discovery (cached once it
 * succeeds), the authorization URL (code + PKCE, state, nonce) and the code exchange, which checks the
 * ID token's signature against the upstream's JWKS, its issuer, audience, expiry and nonce.
 */
export class UpstreamProvider {
  private configuration: Promise<oidc.Configuration> | null = null;

  constructor(
    readonly settings: SocialProviderConfig,
    /** Our callback, registered at the upstream: `$PUBLIC_URL/oidc/social/<id>/callback`. */
    readonly redirectUri: string,
  ) {}

  get id(): string {
    return this.settings.id;
  }

  get name(): string {
    return this.settings.name;
  }

  private discover(): Promise<oidc.Configuration> {
    if (this.configuration) return this.configuration;
    const { issuer, clientId, clientSecret } = this.settings;
    const execute = [oidc.enableNonRepudiationChecks];
    // Config allows plain http for loopback issuers only (development and tests).
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- loopback issuers only
    if (new URL(issuer).protocol === 'http:') execute.push(oidc.allowInsecureRequests);
    const auth = clientSecret === undefined ? oidc.None() : oidc.ClientSecretBasic(clientSecret);
    const pending = oidc.discovery(new URL(issuer), clientId, undefined, auth, { execute, timeout: UPSTREAM_TIMEOUT_SECONDS });
    this.configuration = pending;
    // A failed discovery is tried again on the next sign-in rather than remembered.
    pending.catch(() => {
      if (this.configuration === pending) this.configuration = null;
    });
    return pending;
  }

  /** Where to send the browser, and the secrets to keep for the callback. */
  async authorizationRequest(): Promise<{ url: URL; secrets: AttemptSecrets }> {
    let configuration: oidc.Configuration;
    try {
      configuration = await this.discover();
    } catch (err) {
      throw new UpstreamError(`discovery of ${this.settings.issuer} failed`, err);
    }
    const secrets: AttemptSecrets = { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() };
    const url = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: this.redirectUri,
      response_type: 'code',
      scope: this.settings.scopes,
      state: secrets.state,
      nonce: secrets.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(secrets.codeVerifier),
      code_challenge_method: 'S256',
    });
    return { url, secrets };
  }

  /**
   * Exchanges the code of an authorization response (its query string) for tokens and returns the
   * person's claims. Throws UpstreamError when anything does not check out.
   */
  async complete(query: URLSearchParams, secrets: AttemptSecrets): Promise<UpstreamClaims> {
    try {
      const configuration = await this.discover();
      const current = new URL(this.redirectUri);
      for (const [key, value] of query) current.searchParams.append(key, value);
      const tokens = await oidc.authorizationCodeGrant(configuration, current, {
        pkceCodeVerifier: secrets.codeVerifier,
        expectedState: secrets.state,
        expectedNonce: secrets.nonce,
        idTokenExpected: true,
      });
      const idToken = tokens.claims();
      if (!idToken) throw new UpstreamError('no ID token');
      let source: Record<string, unknown> = idToken;
      // Some providers put email and names only in userinfo (OpenID Connect allows either).
      if ((idToken.email === undefined || idToken.email_verified === undefined) && configuration.serverMetadata().userinfo_endpoint) {
        const userinfo = await oidc.fetchUserInfo(configuration, tokens.access_token, idToken.sub);
        // The ID token's claims win; userinfo fills in what it lacks (fetchUserInfo checked that sub matches).
        source = { ...userinfo, ...idToken };
      }
      return toClaims(source, idToken.sub);
    } catch (err) {
      if (err instanceof UpstreamError) throw err;
      throw new UpstreamError(`the sign-in at ${this.settings.issuer} could not be confirmed`, err);
    }
  }
}

/** The configured providers by id. */
export function upstreamProviders(providers: readonly SocialProviderConfig[], issuerUrl: string): Map<string, UpstreamProvider> {
  return new Map(providers.map((p) => [p.id, new UpstreamProvider(p, `${issuerUrl}/social/${p.id}/callback`)]));
}
