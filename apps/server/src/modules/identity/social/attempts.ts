import { and, eq, gt } from 'drizzle-orm';
import type { Queryable } from '../../../platform/db/client.js';
import { oidcPayloads } from '../../../platform/db/schema/index.js';
import type { AttemptSecrets } from './upstream.js';

/** The oidc_payloads model of a social sign-in on its way to the upstream and back (not one of the provider's). */
const MODEL = 'SocialSignIn';
/** How long the person has at the upstream before the attempt lapses. */
export const ATTEMPT_TTL_SECONDS = 10 * 60;

export interface Attempt extends AttemptSecrets {
  provider: string;
  /** The uid of the issuer interaction the attempt belongs to. */
  uid: string;
}

interface StoredAttempt {
  provider: string;
  nonce: string;
  codeVerifier: string;
}

/** Keeps the secrets of an attempt under its state, bound to the interaction. */
export async function saveAttempt(q: Queryable, attempt: Attempt, now: Date = new Date()): Promise<void> {
  const payload: StoredAttempt = { provider: attempt.provider, nonce: attempt.nonce, codeVerifier: attempt.codeVerifier };
  await q.insert(oidcPayloads).values({
    model: MODEL,
    id: attempt.state,
    uid: attempt.uid,
    payload,
    expiresAt: new Date(now.getTime() + ATTEMPT_TTL_SECONDS * 1000),
  });
}

/** The interaction an unexpired attempt belongs to, without using it up (the callback relay needs it). */
export async function attemptInteraction(q: Queryable, provider: string, state: string, now: Date = new Date()): Promise<string | null> {
  if (state === '') return null;
  const [row] = await q
    .select({ uid: oidcPayloads.uid, payload: oidcPayloads.payload })
    .from(oidcPayloads)
    .where(and(eq(oidcPayloads.model, MODEL), eq(oidcPayloads.id, state), gt(oidcPayloads.expiresAt, now)))
    .limit(1);
  if (!row || (row.payload as StoredAttempt).provider !== provider) return null;
  return row.uid;
}

/**
 * Uses up the attempt of this state, interaction and provider (one delete, so a replayed callback finds
 * nothing). Null when there is none: unknown, tampered with, expired, used, or of another interaction.
 */
export async function takeAttempt(
  q: Queryable,
  expected: { provider: string; uid: string; state: string },
  now: Date = new Date(),
): Promise<Attempt | null> {
  if (expected.state === '') return null;
  const [row] = await q
    .delete(oidcPayloads)
    .where(
      and(
        eq(oidcPayloads.model, MODEL),
        eq(oidcPayloads.id, expected.state),
        eq(oidcPayloads.uid, expected.uid),
        gt(oidcPayloads.expiresAt, now),
      ),
    )
    .returning({ payload: oidcPayloads.payload });
  if (!row) return null;
  const stored = row.payload as StoredAttempt;
  if (stored.provider !== expected.provider) return null;
  return { ...stored, uid: expected.uid, state: expected.state };
}
