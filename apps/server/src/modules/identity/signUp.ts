import type { SignUp } from '@parley/shared';
import { v7 as uuidv7 } from 'uuid';
import type { Db } from '../../platform/db/client.js';
import { users, type UserRow } from '../../platform/db/schema/index.js';
import { hashPassword } from './passwords.js';
import { findUserByEmail, normalizeEmail } from './users.js';

export const EMAIL_TAKEN_MESSAGE = 'An account with this email already exists. Sign in or reset your password.';

export type SignUpOutcome = { ok: true; user: UserRow } | { ok: false; existing: UserRow };

/**
 * Creates a user from the sign-up form: terms and communication consent are recorded as accepted now
 * (the form cannot be sent without both). The address is unverified until the mailed link is used.
 * An address that already has a user is not touched; the caller answers 409.
 */
export async function signUp(db: Db, input: SignUp, now: Date = new Date()): Promise<SignUpOutcome> {
  const email = normalizeEmail(input.email);
  const before = await findUserByEmail(db, email);
  if (before) return { ok: false, existing: before };
  const passwordHash = await hashPassword(input.password);
  const [row] = await db
    .insert(users)
    .values({
      id: uuidv7(),
      email,
      passwordHash,
      firstName: input.firstName,
      lastName: input.lastName,
      mobileNumber: input.mobile.number,
      mobileCountry: input.mobile.country,
      tacAcceptedAt: now,
      communicationConsentAt: now,
      promoCode: input.promoCode === undefined || input.promoCode === '' ? null : input.promoCode,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing({ target: users.email })
    .returning();
  if (row) return { ok: true, user: row };
  // Someone signed up with the same address at the same moment.
  const existing = await findUserByEmail(db, email);
  if (!existing) throw new Error('the user was neither created nor found');
  return { ok: false, existing };
}
