import { describe, expect, it } from 'vitest';
import { message, uuid } from './inbox/testFixtures';
import { chronological } from './history';

const page = (...ids: number[]) => ({
  data: ids.map((n) => message({ id: uuid(n), conversationId: uuid(1) })),
  pagination: { totalCount: 5, offset: 0, limit: 2 },
});

describe('chronological', () => {
  it('reads the newest-first pages oldest first', () => {
    expect(chronological([page(5, 4), page(3, 2)]).map((m) => m.id)).toEqual([2, 3, 4, 5].map(uuid));
  });

  it('shows a message once when a later page repeats one that arrived live', () => {
    expect(chronological([page(6, 5, 4), page(4, 3)]).map((m) => m.id)).toEqual([3, 4, 5, 6].map(uuid));
  });

  it('reads nothing from no pages', () => {
    expect(chronological([])).toEqual([]);
  });
});
