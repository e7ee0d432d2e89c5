import {
  createLocalJWKSet,
  createRemoteJWKSet,
  errors as joseErrors,
  jwtVerify,
  type JWK,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ExpiringCache } from './accessCache.js';
import type { Authenticator, Principal } from './authenticator.js';
import { SECRET_VERSION_CLAIM } from './issuer/apiClientSecrets.js';

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
  /** How long a verified token's principal is kept in this process (ms); never past the token's expiry. 0 keeps none. */
  cacheMs?: number;
  /** The clock of the cache (tests). */
  now?: () => number;
}

/** A verified token is kept a minute: its signature and claims cannot change, and access is checked per request. */
export const VERIFIED_TOKEN_CACHE_MS = 60_000;
const VERIFIED_TOKEN_CACHE_ENTRIES = 10_000;

const tokenKey = (token: string): string => createHash('sha256').update(token, 'utf8').digest('base64url');

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
    const version = payload[SECRET_VERSION_CLAIM];
    return { userId: sub, clientId, accountIds: [accountClaim.data], ...(typeof version === 'string' ? { secretVersion: version } : {}) };
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
  const cacheMs = options.cacheMs ?? VERIFIED_TOKEN_CACHE_MS;
  const now = options.now ?? ((): number => Date.now());
  const verified = new ExpiringCache<Principal>(VERIFIED_TOKEN_CACHE_ENTRIES, now);
  const verify = async (token: string): Promise<{ principal: Principal; expiresAt: number } | null> => {
    const getKey = await keySet();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, getKey, {
        issuer: options.issuer,
        audience: options.audience,
        algorithms: ['RS256', 'PS256', 'ES256', 'EdDSA'],
        requiredClaims: ['exp', 'sub'],
        clockTolerance: options.clockToleranceSeconds ?? 15,
        currentDate: new Date(now()),
      }));
    } catch (error) {
      if (error instanceof joseErrors.JOSEError && !(error instanceof joseErrors.JWKSTimeout)) return null;
      throw error;
    }
    const found = principalOf(payload);
    const principal =
      found === null || found.clientId !== undefined || options.resolveUser === undefined ? found : await options.resolveUser(found, payload);
    // requiredClaims makes exp a number of seconds.
    return principal === null ? null : { principal, expiresAt: Number(payload.exp) * 1000 };
  };
  return {
    async authenticate(token) {
      if (cacheMs <= 0) return (await verify(token))?.principal ?? null;
      // Keyed by the token's hash, so the process never holds tokens themselves. Kept at most until the
      // token expires (no clock tolerance then): a cached token is never accepted after its expiry.
      const key = tokenKey(token);
      const cached = verified.get(key);
      if (cached !== undefined) return cached;
      const result = await verify(token);
      if (result === null) return null;
      verified.set(key, result.principal, Math.min(now() + cacheMs, result.expiresAt));
      return result.principal;
    },
  };
}
