import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { describe, expect, it } from 'vitest';
import type { Principal } from './authenticator.js';
import { createTokenVerifier, VERIFIED_TOKEN_CACHE_MS } from './tokenVerifier.js';

const issuer = 'https://id.example.test';
const audience = 'parley-api';

async function signer() {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  const sign = (claims: Record<string, unknown>, expiresAtSeconds: number): Promise<string> =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuer(issuer)
      .setAudience(audience)
      .setIssuedAt(expiresAtSeconds - 3600)
      .setExpirationTime(expiresAtSeconds)
      .sign(privateKey);
  return { jwk, sign };
}

/** A verifier on a clock the test moves, counting how often a token is really verified (the person's mapping runs then). */
function verifierAt(jwk: JWK, start: number) {
  const clock = { now: start };
  let verified = 0;
  const verifier = createTokenVerifier({
    issuer,
    audience,
    jwks: [jwk],
    clockToleranceSeconds: 0,
    now: () => clock.now,
    resolveUser: (principal: Principal) => {
      verified++;
      return Promise.resolve(principal);
    },
  });
  return { verifier, clock, verifications: () => verified };
}

describe('access token verification kept per process', () => {
  it('keeps a verified token for a minute, then verifies it again', async () => {
    const { jwk, sign } = await signer();
    const start = Date.UTC(2026, 0, 1);
    const { verifier, clock, verifications } = verifierAt(jwk, start);
    const token = await sign({ sub: randomUUID() }, start / 1000 + 3600);
    const first = await verifier.authenticate(token);
    expect(first).not.toBeNull();
    clock.now = start + VERIFIED_TOKEN_CACHE_MS - 1;
    expect(await verifier.authenticate(token)).toEqual(first);
    expect(verifications()).toBe(1);
    clock.now = start + VERIFIED_TOKEN_CACHE_MS;
    expect(await verifier.authenticate(token)).toEqual(first);
    expect(verifications()).toBe(2);
  });

  it('never accepts a kept token past its expiry', async () => {
    const { jwk, sign } = await signer();
    const start = Date.UTC(2026, 0, 1);
    const { verifier, clock } = verifierAt(jwk, start);
    const token = await sign({ sub: randomUUID() }, start / 1000 + 20);
    expect(await verifier.authenticate(token)).not.toBeNull();
    clock.now = start + 19_999;
    expect(await verifier.authenticate(token)).not.toBeNull();
    clock.now = start + 20_000;
    expect(await verifier.authenticate(token)).toBeNull();
  });

  it('keeps nothing of a refused token, and tells tokens apart', async () => {
    const { jwk, sign } = await signer();
    const other = await signer();
    const start = Date.UTC(2026, 0, 1);
    const { verifier, verifications } = verifierAt(jwk, start);
    const [alice, bob] = [randomUUID(), randomUUID()];
    const forged = await other.sign({ sub: alice }, start / 1000 + 3600);
    expect(await verifier.authenticate(forged)).toBeNull();
    expect(await verifier.authenticate(forged)).toBeNull();
    expect((await verifier.authenticate(await sign({ sub: alice }, start / 1000 + 3600)))?.userId).toBe(alice);
    expect((await verifier.authenticate(await sign({ sub: bob }, start / 1000 + 3600)))?.userId).toBe(bob);
    expect(verifications()).toBe(2);
  });

  it('verifies every time with the cache off', async () => {
    const { jwk, sign } = await signer();
    const start = Date.UTC(2026, 0, 1);
    let verified = 0;
    const verifier = createTokenVerifier({
      issuer,
      audience,
      jwks: [jwk],
      cacheMs: 0,
      now: () => start,
      resolveUser: (principal) => {
        verified++;
        return Promise.resolve(principal);
      },
    });
    const token = await sign({ sub: randomUUID() }, start / 1000 + 3600);
    await verifier.authenticate(token);
    await verifier.authenticate(token);
    expect(verified).toBe(2);
  });
});
