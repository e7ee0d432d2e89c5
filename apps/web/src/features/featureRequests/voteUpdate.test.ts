import { describe, expect, it } from 'vitest';
import type { FeatureRequest } from '@parley/shared';
import { applyVote, withVote } from './voteUpdate';

const post = (id: string, voteCount: number, voted: boolean): FeatureRequest => ({
  id,
  title: `Post ${id}`,
  text: '',
  status: 'open',
  author: null,
  voteCount,
  commentCount: 0,
  voted,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

describe('an optimistic vote', () => {
  it('adds one and marks the post, once', () => {
    expect(withVote(post('a', 2, false), true)).toEqual(expect.objectContaining({ voteCount: 3, voted: true }));
    expect(withVote(post('a', 3, true), true)).toEqual(expect.objectContaining({ voteCount: 3, voted: true }));
    expect(withVote(post('a', 3, true), false)).toEqual(expect.objectContaining({ voteCount: 2, voted: false }));
    expect(withVote(post('a', 0, true), false).voteCount).toBe(0);
  });

  it('changes only the voted post, in a page or alone, and leaves other answers alone', () => {
    const page = { data: [post('a', 1, false), post('b', 5, false)], pagination: { totalCount: 2, offset: 0, limit: 20 } };
    const after = applyVote(page, 'b', true);
    expect(after.data.map((p) => [p.id, p.voteCount, p.voted])).toEqual([
      ['a', 1, false],
      ['b', 6, true],
    ]);
    expect(after.pagination).toBe(page.pagination);
    expect(applyVote({ data: post('a', 1, false) }, 'a', true).data.voteCount).toBe(2);
    expect(applyVote({ data: post('a', 1, false) }, 'b', true).data.voteCount).toBe(1);
    expect(applyVote<unknown>(null, 'a', true)).toBeNull();
  });
});
