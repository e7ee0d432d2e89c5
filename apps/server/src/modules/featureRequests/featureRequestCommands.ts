import { and, eq, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { FEATURE_REQUEST_NOT_FOUND_MESSAGE, type FeatureRequestUpdate, type NewFeatureRequest } from '@parley/shared';
import type { Db, Queryable } from '../../platform/db/client.js';
import { isUuid } from '../../platform/db/ids.js';
import { featureRequests, featureRequestVotes } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { requireOperator } from './operatorPolicy.js';

export const featureRequestNotFound = (): AppError => new AppError(404, 'not_found', FEATURE_REQUEST_NOT_FOUND_MESSAGE);

/** Locks the post for the rest of the transaction; a missing or malformed id answers 404. */
export async function lockFeatureRequest(q: Queryable, id: string): Promise<void> {
  if (!isUuid(id)) throw featureRequestNotFound();
  const [found] = await q.select({ id: featureRequests.id }).from(featureRequests).where(eq(featureRequests.id, id)).for('update');
  if (found === undefined) throw featureRequestNotFound();
}

/** A new post, open, by the signed-in person; its id. */
export async function postFeatureRequest(db: Db, authorId: string, input: NewFeatureRequest): Promise<string> {
  const id = uuidv7();
  await db.insert(featureRequests).values({ id, title: input.title, body: input.text, authorId });
  return id;
}

/** An operator's change of title, text or status. */
export async function updateFeatureRequest(db: Db, userId: string, id: string, change: FeatureRequestUpdate): Promise<void> {
  await requireOperator(db, userId);
  await db.transaction(async (tx) => {
    await lockFeatureRequest(tx, id);
    await tx
      .update(featureRequests)
      .set({
        ...(change.title === undefined ? {} : { title: change.title }),
        ...(change.text === undefined ? {} : { body: change.text }),
        ...(change.status === undefined ? {} : { status: change.status }),
        updatedAt: new Date(),
      })
      .where(eq(featureRequests.id, id));
  });
}

/** An operator removes a post with its votes and comments. */
export async function removeFeatureRequest(db: Db, userId: string, id: string): Promise<void> {
  await requireOperator(db, userId);
  if (!isUuid(id)) throw featureRequestNotFound();
  const removed = await db.delete(featureRequests).where(eq(featureRequests.id, id)).returning({ id: featureRequests.id });
  if (removed.length === 0) throw featureRequestNotFound();
}

/**
 * The user's vote: at most one per user and post (the key), so a second vote, or ten at once, change nothing.
 * The count moves only with a vote actually written, in the same transaction.
 */
export async function voteForFeatureRequest(db: Db, userId: string, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    await lockFeatureRequest(tx, id);
    const written = await tx
      .insert(featureRequestVotes)
      .values({ featureRequestId: id, userId })
      .onConflictDoNothing()
      .returning({ userId: featureRequestVotes.userId });
    if (written.length > 0) await tx.update(featureRequests).set({ voteCount: sql`${featureRequests.voteCount} + 1` }).where(eq(featureRequests.id, id));
  });
}

/** Takes the user's vote back; without one, nothing changes. */
export async function unvoteFeatureRequest(db: Db, userId: string, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    await lockFeatureRequest(tx, id);
    const removed = await tx
      .delete(featureRequestVotes)
      .where(and(eq(featureRequestVotes.featureRequestId, id), eq(featureRequestVotes.userId, userId)))
      .returning({ userId: featureRequestVotes.userId });
    if (removed.length > 0) await tx.update(featureRequests).set({ voteCount: sql`${featureRequests.voteCount} - 1` }).where(eq(featureRequests.id, id));
  });
}
