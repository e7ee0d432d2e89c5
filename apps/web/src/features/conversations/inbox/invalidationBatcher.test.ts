import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { QueryKey } from '@tanstack/react-query';
import { createInvalidationBatcher, INBOX_FETCH_DEBOUNCE_MS } from './invalidationBatcher';

describe('createInvalidationBatcher', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits 500 ms, then asks once for each key requested meanwhile', () => {
    const runs: QueryKey[][] = [];
    const batcher = createInvalidationBatcher((keys) => runs.push(keys));
    batcher.request(['a', { offset: 0 }]);
    vi.advanceTimersByTime(300);
    batcher.request(['a', { offset: 0 }]);
    batcher.request(['b']);
    vi.advanceTimersByTime(INBOX_FETCH_DEBOUNCE_MS - 301);
    expect(runs).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(runs).toEqual([[['a', { offset: 0 }], ['b']]]);
  });

  it('keeps firing every window during a steady burst instead of waiting for quiet', () => {
    const runs: QueryKey[][] = [];
    const batcher = createInvalidationBatcher((keys) => runs.push(keys));
    for (let ms = 0; ms < 1600; ms += 100) {
      batcher.request(['list']);
      vi.advanceTimersByTime(100);
    }
    expect(runs.length).toBe(3);
  });

  it('drops what waits when cancelled', () => {
    const run = vi.fn();
    const batcher = createInvalidationBatcher(run);
    batcher.request(['a']);
    batcher.cancel();
    vi.advanceTimersByTime(1000);
    expect(run).not.toHaveBeenCalled();
  });
});
