import { eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client.js';
import { users } from '../../platform/db/schema/index.js';
import { verifyNothing, verifyPassword } from './passwords.js';
import { findUserByEmail } from './users.js';

/** Consecutive wrong passwords that lock a user, and for how long. */
export const LOCKOUT_THRESHOLD = 5;
export const LOCKOUT_MINUTES = 15;

/** The only message a failed sign-in shows, whatever the reason, so it never tells which emails exist. */
export const SIGN_IN_FAILED_MESSAGE = 'Wrong email or password.';

export type SignInResult = { ok: true; userId: string } | { ok: false; reason: 'unknown' | 'wrong_password' | 'locked' };

/**
 * Checks an email and password. A wrong password counts against the user; the fifth in a row locks
 * them for 15 minutes, during which even the right password is refused. The reason is for logs only.
 */
export async function checkCredentials(
  q: Queryable,
  email: string,
  password: string,
  now: Date = new Date(),
): Promise<SignInResult> {
  const user = await findUserByEmail(q, email);
  if (!user?.passwordHash) {
    await verifyNothing(password);
    return { ok: false, reason: 'unknown' };
  }
  if (user.lockedUntil !== null && user.lockedUntil > now) {
    await verifyNothing(password);
    return { ok: false, reason: 'locked' };
  }
  if (await verifyPassword(user.passwordHash, password)) {
    if (user.failedSignIns !== 0 || user.lockedUntil !== null) {
      await q.update(users).set({ failedSignIns: 0, lockedUntil: null }).where(eq(users.id, user.id));
    }
    return { ok: true, userId: user.id };
  }
  // One statement, so concurrent wrong attempts all count.
  const lockAt = new Date(now.getTime() + LOCKOUT_MINUTES * 60_000);
  await q
    .update(users)
    .set({
      failedSignIns: sql`case when ${users.failedSignIns} + 1 >= ${LOCKOUT_THRESHOLD} then 0 else ${users.failedSignIns} + 1 end`,
      lockedUntil: sql`case when ${users.failedSignIns} + 1 >= ${LOCKOUT_THRESHOLD} then ${lockAt.toISOString()}::timestamptz else ${users.lockedUntil} end`,
    })
    .where(eq(users.id, user.id));
  return { ok: false, reason: 'wrong_password' };
}
