import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Queryable } from '../../platform/db/client.js';
import { userTokens, type UserTokenRow } from '../../platform/db/schema/index.js';

export type UserTokenPurpose = UserTokenRow['purpose'];

/** 32 random bytes in base64url: 43 characters. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** Only this hash is stored: a leaked table holds no usable link. The token is random, so SHA-256 suffices. */
export function hashUserToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Creates a one-time token for a link sent by e-mail and returns the token itself (never stored). */
export async function issueUserToken(
  q: Queryable,
  userId: string,
  purpose: UserTokenPurpose,
  ttlMs: number,
  now: Date = new Date(),
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await q.insert(userTokens).values({
    id: uuidv7(),
    userId,
    purpose,
    tokenHash: hashUserToken(token),
    createdAt: now,
    expiresAt: new Date(now.getTime() + ttlMs),
  });
  return token;
}

const usable = (token: string, purpose: UserTokenPurpose, now: Date) =>
  and(
    eq(userTokens.tokenHash, hashUserToken(token)),
    eq(userTokens.purpose, purpose),
    isNull(userTokens.usedAt),
    gt(userTokens.expiresAt, now),
  );

/** The user a token is for while it is unused and unexpired, without using it up (to show a form). */
export async function peekUserToken(
  q: Queryable,
  token: string,
  purpose: UserTokenPurpose,
  now: Date = new Date(),
): Promise<string | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const [row] = await q.select({ userId: userTokens.userId }).from(userTokens).where(usable(token, purpose, now)).limit(1);
  return row?.userId ?? null;
}

/**
 * Uses a token up and returns its user, or null when it is unknown, used, expired or for another
 * purpose. One conditional update, so two concurrent uses cannot both succeed.
 */
export async function consumeUserToken(
  q: Queryable,
  token: string,
  purpose: UserTokenPurpose,
  now: Date = new Date(),
): Promise<string | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const [row] = await q
    .update(userTokens)
    .set({ usedAt: now })
    .where(usable(token, purpose, now))
    .returning({ userId: userTokens.userId });
  return row?.userId ?? null;
}

/** Retires every open token of a purpose for a user (after a reset, older reset links stop working). */
export async function retireUserTokens(q: Queryable, userId: string, purpose: UserTokenPurpose, now: Date = new Date()): Promise<void> {
  await q
    .update(userTokens)
    .set({ usedAt: now })
    .where(and(eq(userTokens.userId, userId), eq(userTokens.purpose, purpose), isNull(userTokens.usedAt)));
}
