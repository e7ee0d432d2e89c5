import type { FeatureRequest } from '@parley/shared';

/** A post as it looks right after the person voted (or took the vote back), before the server answers. */
export const withVote = (post: FeatureRequest, voted: boolean): FeatureRequest =>
  post.voted === voted ? post : { ...post, voted, voteCount: Math.max(0, post.voteCount + (voted ? 1 : -1)) };

const isPost = (value: unknown): value is FeatureRequest =>
  typeof value === 'object' && value !== null && 'id' in value && 'voteCount' in value && 'voted' in value;

/**
 * The board's cached answers (a list `{ data: [...] }` or one post `{ data }`) with the vote applied to the
 * post `id`; other answers are handed back as they are.
 */
export function applyVote<T>(answer: T, id: string, voted: boolean): T {
  if (typeof answer !== 'object' || answer === null || !('data' in answer)) return answer;
  const { data } = answer;
  if (Array.isArray(data)) return { ...answer, data: data.map((p: unknown) => (isPost(p) && p.id === id ? withVote(p, voted) : p)) };
  if (isPost(data) && data.id === id) return { ...answer, data: withVote(data, voted) };
  return answer;
}
