import { emailAddress } from '@parley/shared';
import { and, eq, sql, TransactionRollbackError } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Db, Tx } from '../../../platform/db/client.js';
import { userIdentities, users } from '../../../platform/db/schema/index.js';
import { revokeIssuerStateOf } from '../issuer/revocation.js';
import { findUserByEmail } from '../users.js';
import type { UpstreamClaims } from './upstream.js';

export type SocialSignInOutcome =
  | { ok: true; userId: string; how: 'returning' | 'linked' | 'created' }
  | { ok: false; reason: 'no_email' | 'unverified_email' | 'unverified_email_in_use' };

/** Another sign-in of the same person won a race (same subject or address); the resolution runs again. */
const RACE: unique symbol = Symbol('race');
type Race = typeof RACE;

async function resolveOnce(tx: Tx, provider: string, claims: UpstreamClaims, now: Date): Promise<SocialSignInOutcome | Race> {
  const [known] = await tx
    .select({ userId: userIdentities.userId })
    .from(userIdentities)
    .where(and(eq(userIdentities.provider, provider), eq(userIdentities.subject, claims.sub)))
    .limit(1);
  if (known) {
    await tx
      .update(userIdentities)
      .set({ lastSignInAt: now, email: claims.email })
      .where(and(eq(userIdentities.provider, provider), eq(userIdentities.subject, claims.sub)));
    return { ok: true, userId: known.userId, how: 'returning' };
  }

  const parsed = emailAddress.safeParse(claims.email ?? '');
  if (!parsed.success) return { ok: false, reason: 'no_email' };
  const email = parsed.data;
  const existing = await findUserByEmail(tx, email);
  // Only an address the upstream vouches for may take over or create a Parley user.
  if (!claims.emailVerified) return { ok: false, reason: existing ? 'unverified_email_in_use' : 'unverified_email' };

  let userId: string;
  let how: 'linked' | 'created';
  if (existing) {
    userId = existing.id;
    how = 'linked';
    if (existing.emailVerifiedAt === null) {
      // Whoever chose this user's password never proved the address, which the upstream just did: the
      // password and its sessions go, so an address registered in advance by someone else is not shared.
      await tx
        .update(users)
        .set({ passwordHash: null, failedSignIns: 0, lockedUntil: null, emailVerifiedAt: now, updatedAt: now })
        .where(eq(users.id, existing.id));
      await revokeIssuerStateOf(tx, existing.id);
    }
  } else {
    const [created] = await tx
      .insert(users)
      .values({
        id: uuidv7(),
        email,
        passwordHash: null,
        firstName: claims.givenName,
        lastName: claims.familyName,
        emailVerifiedAt: now,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing({ target: users.email })
      .returning({ id: users.id });
    if (!created) return RACE;
    userId = created.id;
    how = 'created';
  }
  const [linked] = await tx
    .insert(userIdentities)
    .values({ provider, subject: claims.sub, userId, email, createdAt: now, lastSignInAt: now })
    .onConflictDoNothing()
    .returning({ userId: userIdentities.userId });
  return linked ? { ok: true, userId, how } : RACE;
}

/**
 * The Parley user an upstream sign-in stands for: the user already linked to this provider and subject;
 * else the user with the same address, linked now, if the upstream says the address is verified; else a
 * new user with that address (verified, no password, names from the upstream; terms, profile and an
 * account are asked for at first login as for anyone). An unverified upstream address is refused.
 */
export async function resolveSocialUser(db: Db, provider: string, claims: UpstreamClaims, now: Date = new Date()): Promise<SocialSignInOutcome> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const outcome = await db
      .transaction(async (tx): Promise<SocialSignInOutcome | Race> => {
        const result = await resolveOnce(tx, provider, claims, now);
        // Undo a half-done link (a user created for a subject someone else linked meanwhile).
        if (result === RACE) tx.rollback();
        return result;
      })
      .catch((err: unknown): Race => {
        if (err instanceof TransactionRollbackError) return RACE;
        throw err;
      });
    if (outcome !== RACE) return outcome;
  }
  throw new Error(`social sign-in of ${provider} kept racing with another sign-in`);
}

/** For tests and support: the providers a user is linked to. */
export async function identitiesOf(db: Db, userId: string): Promise<{ provider: string; subject: string }[]> {
  return db
    .select({ provider: userIdentities.provider, subject: userIdentities.subject })
    .from(userIdentities)
    .where(eq(userIdentities.userId, userId))
    .orderBy(sql`${userIdentities.createdAt}`);
}
