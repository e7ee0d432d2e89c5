import { eq } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client.js';
import { users } from '../../platform/db/schema/index.js';
import { requireVerifiedEmail } from '../../platform/policies/verifiedEmail.js';

/** A person paying must have verified their address; an API client (null) pays for its account. */
export async function requireVerifiedPayer(q: Queryable, userId: string | null): Promise<void> {
  if (userId === null) return;
  const [user] = await q.select({ emailVerifiedAt: users.emailVerifiedAt }).from(users).where(eq(users.id, userId)).limit(1);
  requireVerifiedEmail({ emailVerifiedAt: user?.emailVerifiedAt ?? null });
}
