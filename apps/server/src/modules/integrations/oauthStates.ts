import crypto from 'node:crypto';
import { and, eq, gt, lt } from 'drizzle-orm';
import type { IntegrationKind } from '@parley/shared';
import type { Db } from '../../platform/db/client.js';
import { integrationOauthStates } from '../../platform/db/schema/index.js';

/** How long an authorization may take, from the start to the provider's redirect back. */
export const OAUTH_STATE_TTL_MS = 10 * 60 * 1000;

const hash = (state: string): string => crypto.createHash('sha256').update(state).digest('base64url');

/** An OAuth start: a random state (kept only as its hash) and a PKCE verifier kept here, its S256 challenge sent. */
export async function createOAuthState(db: Db, input: { accountId: string; userId: string; kind: IntegrationKind }, now = new Date()): Promise<{ state: string; codeChallenge: string }> {
  const state = crypto.randomBytes(32).toString('base64url');
  const codeVerifier = crypto.randomBytes(48).toString('base64url');
  await db.delete(integrationOauthStates).where(lt(integrationOauthStates.expiresAt, now));
  await db.insert(integrationOauthStates).values({ stateHash: hash(state), ...input, codeVerifier, expiresAt: new Date(now.getTime() + OAUTH_STATE_TTL_MS) });
  return { state, codeChallenge: crypto.createHash('sha256').update(codeVerifier).digest('base64url') };
}

/**
 * Takes a state back, once: it is deleted as it is read, so a replayed redirect finds nothing. Null when it
 * is unknown, used, expired or of another kind.
 */
export async function consumeOAuthState(db: Db, state: string, kind: IntegrationKind, now = new Date()): Promise<{ accountId: string; userId: string; codeVerifier: string } | null> {
  const [row] = await db
    .delete(integrationOauthStates)
    .where(and(eq(integrationOauthStates.stateHash, hash(state)), eq(integrationOauthStates.kind, kind), gt(integrationOauthStates.expiresAt, now)))
    .returning();
  return row === undefined ? null : { accountId: row.accountId, userId: row.userId, codeVerifier: row.codeVerifier };
}
