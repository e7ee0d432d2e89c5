import { localPath } from '@parley/shared';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { users } from '../../platform/db/schema/index.js';
import type { AppContext } from '../../platform/context.js';
import { verifyEmailMail } from '../../platform/mail/templates/verifyEmail.js';
import { acceptOpenInvitations } from './invitationsAcceptance.js';
import { consumeUserToken, issueUserToken } from './userTokens.js';

export const VERIFY_EMAIL_TTL_HOURS = 48;
const VERIFY_EMAIL_TTL_MS = VERIFY_EMAIL_TTL_HOURS * 3_600_000;

export type MailDeps = Pick<AppContext, 'config' | 'database' | 'mailer'>;

/**
 * A path of this site to continue at after verification, or null: the shared rule for redirect targets
 * (`localPath`: "/x", never "//x", "/\x" or "/.//x", which browsers read as another host), so the link
 * can never send anyone elsewhere.
 */
export function safeRedirectPath(value: string | undefined | null): string | null {
  return localPath(value);
}

/** Issues a verification token (48 hours, one use) and mails its link to the user. */
export async function sendVerificationEmail(
  deps: MailDeps,
  user: { id: string; email: string; firstName: string },
  options: { redirectTo?: string | null; now?: Date } = {},
): Promise<void> {
  const token = await issueUserToken(deps.database.db, user.id, 'verify_email', VERIFY_EMAIL_TTL_MS, options.now);
  const link = new URL(`${deps.config.publicUrl}/v1/verify`);
  link.searchParams.set('token', token);
  const redirectTo = safeRedirectPath(options.redirectTo);
  if (redirectTo !== null) link.searchParams.set('redirectTo', redirectTo);
  const content = verifyEmailMail({ firstName: user.firstName, link: link.toString(), validHours: VERIFY_EMAIL_TTL_HOURS });
  await deps.mailer.send({ to: user.email, ...content });
}

/**
 * Uses a verification token: marks the address verified (keeping the first time it was) and turns open
 * invitations into memberships, in one transaction. Null when the token is unknown, used or expired.
 */
export async function verifyEmail(db: Db, token: string, now: Date = new Date()): Promise<string | null> {
  return db.transaction(async (tx) => {
    const userId = await consumeUserToken(tx, token, 'verify_email', now);
    if (userId === null) return null;
    await tx
      .update(users)
      .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${now.toISOString()}::timestamptz)`, updatedAt: now })
      .where(eq(users.id, userId));
    await acceptOpenInvitations(tx, userId, now);
    return userId;
  });
}
