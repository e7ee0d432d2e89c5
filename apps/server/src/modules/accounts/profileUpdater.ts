import { eq } from 'drizzle-orm';
import type { ProfileUpdate } from '@parley/shared';
import type { Db } from '../../platform/db/client.js';
import { users } from '../../platform/db/schema/index.js';
import { notFound } from '../../platform/errors.js';

/** Name and mobile number of the signed-in user; the e-mail is changed elsewhere (it signs in with it). */
export async function updateProfile(db: Db, userId: string, update: ProfileUpdate): Promise<void> {
  const [updated] = await db
    .update(users)
    .set({
      firstName: update.firstName,
      lastName: update.lastName,
      mobileNumber: update.mobile.number,
      mobileCountry: update.mobile.country,
      updatedAt: new Date(),
    })
    .where(eq(users.id, userId))
    .returning({ id: users.id });
  if (!updated) throw notFound('The user');
}

/** Records the first acceptance of the terms; accepting again keeps that date. */
export async function acceptTerms(db: Db, userId: string, now: Date = new Date()): Promise<void> {
  const [user] = await db
    .select({ tacAcceptedAt: users.tacAcceptedAt })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!user) throw notFound('The user');
  if (user.tacAcceptedAt !== null) return;
  await db.update(users).set({ tacAcceptedAt: now, updatedAt: now }).where(eq(users.id, userId));
}
