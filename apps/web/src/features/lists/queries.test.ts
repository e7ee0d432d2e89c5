import type { ListRecord } from '@parley/shared';
import { describe, expect, it } from 'vitest';
import { listRemoved, listSaved, type ListPage } from './queries';

const list = (id: string, name: string, memberCount = 0): ListRecord => ({
  id,
  name,
  memberCount,
  created: { at: '2026-01-01T00:00:00.000Z' },
  updated: { at: '2026-01-01T00:00:00.000Z' },
});

const page = (...lists: ListRecord[]): ListPage => ({ data: lists, pagination: { totalCount: lists.length, offset: 0, limit: 100 } });

describe('the cached lists', () => {
  it('adds a created list in name order and raises totalCount by one', () => {
    const next = listSaved(page(list('a', 'alpha'), list('c', 'Zeta')), list('b', 'Mid'));
    expect(next?.data.map((l) => l.name)).toEqual(['alpha', 'Mid', 'Zeta']);
    expect(next?.pagination.totalCount).toBe(3);
  });

  it('replaces an edited list without changing totalCount', () => {
    const next = listSaved(page(list('a', 'alpha'), list('b', 'beta')), list('a', 'omega', 4));
    expect(next?.data.map((l) => [l.name, l.memberCount])).toEqual([
      ['beta', 0],
      ['omega', 4],
    ]);
    expect(next?.pagination.totalCount).toBe(2);
  });

  it('takes a removed list out and lowers totalCount by one, never below zero', () => {
    const next = listRemoved(page(list('a', 'alpha'), list('b', 'beta')), 'a');
    expect(next?.data.map((l) => l.id)).toEqual(['b']);
    expect(next?.pagination.totalCount).toBe(1);
    expect(listRemoved({ data: [], pagination: { totalCount: 0, offset: 0, limit: 100 } }, 'x')?.pagination.totalCount).toBe(0);
  });

  it('leaves a page that was never loaded alone', () => {
    expect(listSaved(undefined, list('a', 'alpha'))).toBeUndefined();
    expect(listRemoved(undefined, 'a')).toBeUndefined();
  });
});
