import type { JWTPayload } from 'jose';
import type { Logger } from 'pino';
import type { Db } from '../../platform/db/client.js';
import type { Principal } from './authenticator.js';
import { acceptOpenInvitations } from './invitationsAcceptance.js';
import { resolveSocialUser } from './social/socialUsers.js';
import type { UpstreamClaims } from './social/upstream.js';

/** Subjects remembered per process; past this the memory starts over (a lookup is one indexed read). */
const CACHE_LIMIT = 10_000;

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** What an external issuer's access token says about the person (OpenID Connect standard claims). */
export function personClaimsOf(payload: JWTPayload & { sub: string }): UpstreamClaims {
  const email = text(payload.email);
  let givenName = text(payload.given_name);
  let familyName = text(payload.family_name);
  if (givenName === '' && familyName === '') {
    const [first = '', ...rest] = text(payload.name).split(/\s+/);
    givenName = first;
    familyName = rest.join(' ');
  }
  return {
    sub: payload.sub,
    email: email === '' ? null : email,
    emailVerified: payload.email_verified === true || payload.email_verified === 'true',
    givenName,
    familyName,
  };
}

/**
 * With OIDC_ISSUER set, a token's `sub` is the external issuer's id for the person, not a Parley user
 * id. This maps it to the Parley user linked to (issuer, sub) in `user_identities`, linking or creating
 * one at the first call with the social sign-in rules (`resolveSocialUser`): the address must be in
 * the token (`email`) and verified there (`email_verified`); a Parley user with that address is linked,
 * otherwise a new one is created, and open invitations for the address become memberships.
 * A token without a usable, verified address is refused (null: 401).
 */
export function externalUserResolver(db: Db, issuer: string, log: Logger) {
  const known = new Map<string, string>();
  const pending = new Map<string, Promise<string | null>>();

  const resolve = async (claims: UpstreamClaims): Promise<string | null> => {
    const outcome = await resolveSocialUser(db, issuer, claims);
    if (!outcome.ok) {
      log.warn({ issuer, sub: claims.sub, reason: outcome.reason }, 'token of the external issuer refused: no verified email to link a Parley user to');
      return null;
    }
    if (outcome.how !== 'returning') {
      log.info({ issuer, sub: claims.sub, userId: outcome.userId, how: outcome.how }, 'Parley user linked to the external issuer');
      await acceptOpenInvitations(db, outcome.userId);
    }
    if (known.size >= CACHE_LIMIT) known.clear();
    known.set(claims.sub, outcome.userId);
    return outcome.userId;
  };

  return async (principal: Principal, payload: JWTPayload): Promise<Principal | null> => {
    const sub = principal.userId;
    let userId = known.get(sub) ?? null;
    if (userId === null) {
      // The app asks for several things at once after sign-in: one resolution per subject at a time.
      let running = pending.get(sub);
      if (running === undefined) {
        running = resolve(personClaimsOf({ ...payload, sub })).finally(() => pending.delete(sub));
        pending.set(sub, running);
      }
      userId = await running;
    }
    return userId === null ? null : { ...principal, userId };
  };
}
