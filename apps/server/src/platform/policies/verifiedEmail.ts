import type { UserRow } from '../db/schema/index.js';
import { AppError } from '../errors.js';

export const UNVERIFIED_EMAIL_MESSAGE =
  'Verify your email address first: you cannot send messages or make chargeable changes until it is verified.';

/** Sending and chargeable commands call this: an unverified address may look around, not spend. */
export function requireVerifiedEmail(user: Pick<UserRow, 'emailVerifiedAt'>): void {
  if (user.emailVerifiedAt === null) throw new AppError(403, 'forbidden', UNVERIFIED_EMAIL_MESSAGE);
}
