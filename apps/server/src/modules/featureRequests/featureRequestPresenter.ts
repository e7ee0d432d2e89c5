import type { FeatureComment, FeatureRequest } from '@parley/shared';
import type { FeatureCommentRow, FeatureRequestRow } from '../../platform/db/schema/index.js';
import { personName } from '../identity/index.js';

interface Author {
  id: string;
  firstName: string;
  lastName: string;
}

/** A post with what the viewer needs beside its row: the author's name and whether they voted. */
export interface FeatureRequestView {
  row: FeatureRequestRow;
  author: Author | null;
  voted: boolean;
}

export interface FeatureCommentView {
  row: FeatureCommentRow;
  author: Author | null;
}

const presentAuthor = (author: Author | null) => (author === null ? null : { id: author.id, name: personName(author) });

export function presentFeatureRequest(view: FeatureRequestView): FeatureRequest {
  const { row } = view;
  return {
    id: row.id,
    title: row.title,
    text: row.body,
    status: row.status,
    author: presentAuthor(view.author),
    voteCount: row.voteCount,
    commentCount: row.commentCount,
    voted: view.voted,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function presentFeatureComment(view: FeatureCommentView): FeatureComment {
  const { row } = view;
  return {
    id: row.id,
    featureRequest: { id: row.featureRequestId },
    text: row.body,
    author: presentAuthor(view.author),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
