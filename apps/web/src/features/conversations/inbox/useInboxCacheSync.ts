import type { OutboxEventPayload } from '@parley/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { useRealtimeEvents } from '../../../realtime/realtimeContext';
import { applyInboxEvent } from './cacheSync';
import { callConversationOf } from './callEvents';
import { parseInboxEvent } from './inboxEvents';
import { createInvalidationBatcher, type InvalidationBatcher } from './invalidationBatcher';
import { inboxKeys } from './queryKeys';

/**
 * Keeps the account's cached inbox (lists, open conversation, history and its calls, unread badge) in step with the
 * websocket's events, whichever page is shown. What the cache cannot work out is fetched again, at most
 * once per 500 ms window.
 */
export function useInboxCacheSync(accountId: string | null): void {
  const queryClient = useQueryClient();
  const batcher = useRef<InvalidationBatcher | null>(null);
  useEffect(() => {
    const created = createInvalidationBatcher((keys) => {
      for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey, exact: true });
    });
    batcher.current = created;
    return () => {
      created.cancel();
      batcher.current = null;
    };
  }, [queryClient]);

  const onEvent = useCallback(
    (payload: OutboxEventPayload) => {
      if (accountId === null) return;
      const callConversation = callConversationOf(payload, accountId);
      // A call's line in the history: fetched again when that conversation's calls are cached.
      if (callConversation !== null && queryClient.getQueryState(inboxKeys.calls(accountId, callConversation)) !== undefined) {
        batcher.current?.request(inboxKeys.calls(accountId, callConversation));
      }
      const event = parseInboxEvent(payload, accountId);
      if (event === null) return;
      applyInboxEvent(queryClient, accountId, event, (key) => {
        batcher.current?.request(key);
      });
    },
    [accountId, queryClient],
  );
  useRealtimeEvents(onEvent);
}
