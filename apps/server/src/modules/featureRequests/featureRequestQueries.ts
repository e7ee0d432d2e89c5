import { and, asc, count, desc, eq, ilike, or, type SQL } from 'drizzle-orm';
import type { FeatureRequestListQuery } from '@parley/shared';
import type { Queryable } from '../../platform/db/client.js';
import { isUuid } from '../../platform/db/ids.js';
import { featureRequestComments, featureRequests, featureRequestVotes, users } from '../../platform/db/schema/index.js';
import type { FeatureCommentView, FeatureRequestView } from './featureRequestPresenter.js';

/** `%`, `_` and `\` in a search word match themselves, not LIKE's wildcards. */
const likePattern = (word: string): string => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Every word must appear in the title or the text, in either case. */
function searchCondition(search: string | undefined): SQL | undefined {
  const words = (search ?? '').split(/\s+/).filter((w) => w !== '');
  if (words.length === 0) return undefined;
  return and(...words.map((w) => or(ilike(featureRequests.title, likePattern(w)), ilike(featureRequests.body, likePattern(w)))));
}

const postColumns = {
  post: featureRequests,
  authorFirstName: users.firstName,
  authorLastName: users.lastName,
  // The viewer's own vote (the join below), null when they have not voted.
  votedBy: featureRequestVotes.userId,
};

function selectPosts(q: Queryable, viewerId: string) {
  return q
    .select(postColumns)
    .from(featureRequests)
    .leftJoin(users, eq(users.id, featureRequests.authorId))
    .leftJoin(featureRequestVotes, and(eq(featureRequestVotes.featureRequestId, featureRequests.id), eq(featureRequestVotes.userId, viewerId)));
}

type PostRow = Awaited<ReturnType<typeof selectPosts>>[number];

const toView = (row: PostRow): FeatureRequestView => ({
  row: row.post,
  author: row.post.authorId === null ? null : { id: row.post.authorId, firstName: row.authorFirstName ?? '', lastName: row.authorLastName ?? '' },
  voted: row.votedBy !== null,
});

/** A page of the board as the viewer sees it: sorted by votes or recency, filtered by status and words. */
export async function listFeatureRequests(
  q: Queryable,
  viewerId: string,
  query: FeatureRequestListQuery,
): Promise<{ rows: FeatureRequestView[]; totalCount: number }> {
  const where = and(query.status === undefined ? undefined : eq(featureRequests.status, query.status), searchCondition(query.search));
  const order =
    query.sort === 'votes'
      ? [desc(featureRequests.voteCount), desc(featureRequests.createdAt), desc(featureRequests.id)]
      : [desc(featureRequests.createdAt), desc(featureRequests.id)];
  const rows = await selectPosts(q, viewerId)
    .where(where)
    .orderBy(...order)
    .offset(query.offset)
    .limit(query.limit);
  const [total] = await q.select({ n: count() }).from(featureRequests).where(where);
  return { rows: rows.map(toView), totalCount: total?.n ?? 0 };
}

export async function findFeatureRequest(q: Queryable, viewerId: string, id: string): Promise<FeatureRequestView | null> {
  if (!isUuid(id)) return null;
  const [row] = await selectPosts(q, viewerId).where(eq(featureRequests.id, id));
  return row === undefined ? null : toView(row);
}

const selectComments = (q: Queryable) =>
  q
    .select({ comment: featureRequestComments, firstName: users.firstName, lastName: users.lastName })
    .from(featureRequestComments)
    .leftJoin(users, eq(users.id, featureRequestComments.authorId));

type CommentRow = Awaited<ReturnType<typeof selectComments>>[number];

const toCommentView = (r: CommentRow): FeatureCommentView => ({
  row: r.comment,
  author: r.comment.authorId === null ? null : { id: r.comment.authorId, firstName: r.firstName ?? '', lastName: r.lastName ?? '' },
});

export async function findFeatureComment(q: Queryable, featureRequestId: string, commentId: string): Promise<FeatureCommentView | null> {
  if (!isUuid(featureRequestId) || !isUuid(commentId)) return null;
  const [row] = await selectComments(q).where(and(eq(featureRequestComments.id, commentId), eq(featureRequestComments.featureRequestId, featureRequestId)));
  return row === undefined ? null : toCommentView(row);
}

/** A post's comments, oldest first (a conversation reads top down). */
export async function listFeatureComments(
  q: Queryable,
  featureRequestId: string,
  page: { offset: number; limit: number },
): Promise<{ rows: FeatureCommentView[]; totalCount: number }> {
  const where = eq(featureRequestComments.featureRequestId, featureRequestId);
  const rows = await selectComments(q)
    .where(where)
    .orderBy(asc(featureRequestComments.createdAt), asc(featureRequestComments.id))
    .offset(page.offset)
    .limit(page.limit);
  const [total] = await q.select({ n: count() }).from(featureRequestComments).where(where);
  return {
    rows: rows.map(toCommentView),
    totalCount: total?.n ?? 0,
  };
}
