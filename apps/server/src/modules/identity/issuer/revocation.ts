import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { Queryable } from '../../../platform/db/client.js';
import { oidcPayloads } from '../../../platform/db/schema/index.js';

/**
 * Ends everything the embedded issuer holds for a user: sessions, grants and what hangs on the grants
 * (refresh tokens, authorization codes, opaque access tokens), and interactions of their sessions. Their
 * refresh tokens stop working at once and the next sign-in asks for credentials again. Access tokens are
 * JWTs that are not stored: one already issued stays valid until it expires (at most an hour).
 * Returns how many rows were removed.
 */
export async function revokeIssuerStateOf(q: Queryable, userId: string): Promise<number> {
  const accountId = sql`${oidcPayloads.payload}->>'accountId'`;
  const grants = q
    .select({ id: oidcPayloads.id })
    .from(oidcPayloads)
    .where(and(eq(oidcPayloads.model, 'Grant'), eq(accountId, userId)));
  const removed = await q
    .delete(oidcPayloads)
    .where(
      or(
        eq(accountId, userId),
        eq(sql`${oidcPayloads.payload}->'session'->>'accountId'`, userId),
        inArray(oidcPayloads.grantId, grants),
      ),
    )
    .returning({ id: oidcPayloads.id });
  return removed.length;
}
