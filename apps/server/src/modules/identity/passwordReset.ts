import { MAX_PASSWORD_LENGTH, passwordStrength } from '@parley/shared';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { users } from '../../platform/db/schema/index.js';
import { passwordResetMail } from '../../platform/mail/templates/passwordReset.js';
import { acceptOpenInvitations } from './invitationsAcceptance.js';
import { ISSUER_PATH } from './issuer/provider.js';
import { revokeIssuerStateOf } from './issuer/revocation.js';
import { hashPassword } from './passwords.js';
import { findUserByEmail } from './users.js';
import { consumeUserToken, issueUserToken, peekUserToken, retireUserTokens } from './userTokens.js';
import type { MailDeps } from './verification.js';

export const RESET_PASSWORD_TTL_MINUTES = 60;
export const RESET_PASSWORD_PATH = `${ISSUER_PATH}/reset`;
export const FORGOT_PASSWORD_PATH = `${ISSUER_PATH}/forgot`;

/** Mails a reset link when the address has a user; does nothing otherwise (the page says the same). */
export async function requestPasswordReset(deps: MailDeps, email: string, now: Date = new Date()): Promise<boolean> {
  const user = await findUserByEmail(deps.database.db, email);
  if (!user) return false;
  const token = await issueUserToken(deps.database.db, user.id, 'reset_password', RESET_PASSWORD_TTL_MINUTES * 60_000, now);
  const link = new URL(`${deps.config.publicUrl}${RESET_PASSWORD_PATH}`);
  link.searchParams.set('token', token);
  const content = passwordResetMail({ firstName: user.firstName, link: link.toString(), validMinutes: RESET_PASSWORD_TTL_MINUTES });
  await deps.mailer.send({ to: user.email, ...content });
  return true;
}

/** Whether a reset link may still be used (to show the form rather than the expired page). */
export async function resetTokenIsUsable(db: Db, token: string, now: Date = new Date()): Promise<boolean> {
  return (await peekUserToken(db, token, 'reset_password', now)) !== null;
}

export type ResetOutcome = { ok: true; userId: string } | { ok: false; reason: 'weak' | 'expired' };

/**
 * Sets a new password with a reset token. A weak password leaves the token usable, so the form can be
 * sent again. Success also lifts a lockout, retires every other reset link of the user, ends their
 * sessions, grants and refresh tokens at the embedded issuer (whoever knew the old password is signed
 * out) and, since the link proves the address, marks it verified and accepts its open invitations.
 */
export async function resetPassword(db: Db, token: string, password: string, now: Date = new Date()): Promise<ResetOutcome> {
  if (!passwordStrength(password).strong || password.length > MAX_PASSWORD_LENGTH) return { ok: false, reason: 'weak' };
  if (!(await resetTokenIsUsable(db, token, now))) return { ok: false, reason: 'expired' };
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx): Promise<ResetOutcome> => {
    const userId = await consumeUserToken(tx, token, 'reset_password', now);
    if (userId === null) return { ok: false, reason: 'expired' };
    await tx
      .update(users)
      .set({
        passwordHash,
        failedSignIns: 0,
        lockedUntil: null,
        emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${now.toISOString()}::timestamptz)`,
        updatedAt: now,
      })
      .where(eq(users.id, userId));
    await retireUserTokens(tx, userId, 'reset_password', now);
    await revokeIssuerStateOf(tx, userId);
    await acceptOpenInvitations(tx, userId, now);
    return { ok: true, userId };
  });
}
