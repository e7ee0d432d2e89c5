import type { QueryKey } from '@tanstack/react-query';

/** Conversation fetches are debounced 500 ms. */
export const INBOX_FETCH_DEBOUNCE_MS = 500;

export interface InvalidationBatcher {
  /** Asks for the query to be fetched again; within one window each key goes once. */
  request: (key: QueryKey) => void;
  /** Hands over what waits at once (tests, and before the batcher goes away it is dropped with cancel). */
  flush: () => void;
  cancel: () => void;
}

/**
 * Collects the refetches that events ask for and runs them together at most once per window: a campaign's
 * burst of events for conversations the page does not hold becomes one list request every 500 ms, not one
 * per message. The first request opens the window, so a lone event is shown within 500 ms.
 */
export function createInvalidationBatcher(
  run: (keys: QueryKey[]) => void,
  ms: number = INBOX_FETCH_DEBOUNCE_MS,
): InvalidationBatcher {
  const waiting = new Map<string, QueryKey>();
  let timer: ReturnType<typeof setTimeout> | null = null;

  const flush = (): void => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (waiting.size === 0) return;
    const keys = [...waiting.values()];
    waiting.clear();
    run(keys);
  };

  return {
    request: (key) => {
      waiting.set(JSON.stringify(key), key);
      timer ??= setTimeout(flush, ms);
    },
    flush,
    cancel: () => {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      waiting.clear();
    },
  };
}
