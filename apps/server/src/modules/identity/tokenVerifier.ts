import {
  createLocalJWKSet,
  createRemoteJWKSet,
  errors as joseErrors,
  jwtVerify,
  type JWK,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import { z } from 'zod';
import type { Authenticator, Principal } from './authenticator.js';

export interface TokenVerifierOptions {
  issuer: string;
  audience: string;
  /** The issuer's public keys (the embedded issuer); otherwise they are fetched from its jwks_uri. */
  jwks?: readonly JWK[];
  /** Tolerated clock difference with the issuer, in seconds. */
  clockToleranceSeconds?: number;
  /**
   * Maps a person's token to the Parley user it stands for (an external issuer's subjects are not
   * Parley user ids; see externalUsers.ts). Null refuses the token. API clients are not mapped.
   */
  resolveUser?: (principal: Principal, payload: JWTPayload) => Promise<Principal | null>;
}

const discoverySchema = z.object({ issuer: z.string(), jwks_uri: z.url() });

/** The jwks_uri from the issuer's discovery document (OpenID Connect Discovery). */
export async function discoverJwksUri(issuer: string): Promise<URL> {
  const url = `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
  const response = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  const doc = discoverySchema.parse(await response.json());
  if (doc.issuer !== issuer) throw new Error(`${url} names issuer ${doc.issuer}, expected ${issuer}`);
  return new URL(doc.jwks_uri);
}

const uuid = z.uuid();

function principalOf(payload: JWTPayload): Principal | null {
  const sub = payload.sub;
  if (typeof sub !== 'string' || sub === '') return null;
  const clientId = typeof payload.client_id === 'string' ? payload.client_id : undefined;
  const accountClaim = uuid.safeParse(payload.account_id);
  // A client_credentials token speaks for the client itself (sub is its id) and for one account.
  if (accountClaim.success && clientId !== undefined && sub === clientId) {
    return { userId: sub, clientId, accountIds: [accountClaim.data] };
  }
  return { userId: sub, accountIds: [] };
}

/**
 * Verifies bearer access tokens (JWTs) of the configured issuer: signature by the issuer's keys, `iss`,
 * `aud` and expiry. Accounts of a user join the principal once accounts exist.
 */
export function createTokenVerifier(options: TokenVerifierOptions): Authenticator {
  let keys: JWTVerifyGetKey | null =
    options.jwks === undefined ? null : createLocalJWKSet({ keys: options.jwks.map((k) => ({ ...k })) });
  let discovering: Promise<JWTVerifyGetKey> | null = null;
  const keySet = (): Promise<JWTVerifyGetKey> => {
    if (keys) return Promise.resolve(keys);
    discovering ??= discoverJwksUri(options.issuer).then(
      (uri) => (keys = createRemoteJWKSet(uri)),
      (error: unknown) => {
        // Try discovery again on the next token rather than failing forever.
        discovering = null;
        throw error;
      },
    );
    return discovering;
  };
  return {
    async authenticate(token) {
      const getKey = await keySet();
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, getKey, {
          issuer: options.issuer,
          audience: options.audience,
          algorithms: ['RS256', 'PS256', 'ES256', 'EdDSA'],
          requiredClaims: ['exp', 'sub'],
          clockTolerance: options.clockToleranceSeconds ?? 15,
        }));
      } catch (error) {
        if (error instanceof joseErrors.JOSEError && !(error instanceof joseErrors.JWKSTimeout)) return null;
        throw error;
      }
      const principal = principalOf(payload);
      if (principal === null || principal.clientId !== undefined || options.resolveUser === undefined) return principal;
      return options.resolveUser(principal, payload);
    },
  };
}
