import { and, eq, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { FEATURE_COMMENT_NOT_FOUND_MESSAGE, type FeatureCommentInput } from '@parley/shared';
import type { Db } from '../../platform/db/client.js';
import { isUuid } from '../../platform/db/ids.js';
import { featureRequestComments, featureRequests } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { lockFeatureRequest } from './featureRequestCommands.js';
import { requireOperator } from './operatorPolicy.js';

export const commentNotFound = (): AppError => new AppError(404, 'not_found', FEATURE_COMMENT_NOT_FOUND_MESSAGE);

const ofPost = (featureRequestId: string, commentId: string) =>
  and(eq(featureRequestComments.id, commentId), eq(featureRequestComments.featureRequestId, featureRequestId));

/** A comment by the signed-in person; its id. The post's count moves with it. */
export async function addFeatureComment(db: Db, authorId: string, featureRequestId: string, input: FeatureCommentInput): Promise<string> {
  const id = uuidv7();
  await db.transaction(async (tx) => {
    await lockFeatureRequest(tx, featureRequestId);
    await tx.insert(featureRequestComments).values({ id, featureRequestId, authorId, body: input.text });
    await tx
      .update(featureRequests)
      .set({ commentCount: sql`${featureRequests.commentCount} + 1` })
      .where(eq(featureRequests.id, featureRequestId));
  });
  return id;
}

/** An operator's edit of a comment. */
export async function editFeatureComment(db: Db, userId: string, featureRequestId: string, commentId: string, input: FeatureCommentInput): Promise<void> {
  await requireOperator(db, userId);
  if (!isUuid(featureRequestId) || !isUuid(commentId)) throw commentNotFound();
  const changed = await db
    .update(featureRequestComments)
    .set({ body: input.text, updatedAt: new Date() })
    .where(ofPost(featureRequestId, commentId))
    .returning({ id: featureRequestComments.id });
  if (changed.length === 0) throw commentNotFound();
}

/** An operator removes a comment. */
export async function removeFeatureComment(db: Db, userId: string, featureRequestId: string, commentId: string): Promise<void> {
  await requireOperator(db, userId);
  if (!isUuid(featureRequestId) || !isUuid(commentId)) throw commentNotFound();
  await db.transaction(async (tx) => {
    await lockFeatureRequest(tx, featureRequestId);
    const removed = await tx.delete(featureRequestComments).where(ofPost(featureRequestId, commentId)).returning({ id: featureRequestComments.id });
    if (removed.length === 0) throw commentNotFound();
    await tx
      .update(featureRequests)
      .set({ commentCount: sql`${featureRequests.commentCount} - 1` })
      .where(eq(featureRequests.id, featureRequestId));
  });
}
