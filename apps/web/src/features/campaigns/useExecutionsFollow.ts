import type { OutboxEventPayload } from '@parley/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { useRealtimeEvents } from '../../realtime/realtimeContext';
import { changesExecutions } from './executionEvents';
import { campaignsQueryKey } from './queries';

/** Events that may change the counts are gathered this long, then the executions are fetched once. */
const GATHER_MS = 1500;

/**
 * Keeps a campaign's executions on show in step after they stopped sending (while one sends, the query
 * polls): a reply or a late failure fetches them again, at most once per 1.5 s, without a reload.
 */
export function useExecutionsFollow(accountId: string, campaignId: string, executionIds: readonly string[]): void {
  const queryClient = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const ids = useRef<ReadonlySet<string>>(new Set());
  useEffect(() => {
    ids.current = new Set(executionIds);
  }, [executionIds]);
  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
      timer.current = null;
    },
    [],
  );
  const onEvent = useCallback(
    (event: OutboxEventPayload) => {
      if (event.accountId !== accountId || timer.current !== null || !changesExecutions(event, ids.current)) return;
      timer.current = setTimeout(() => {
        timer.current = null;
        void queryClient.invalidateQueries({ queryKey: [...campaignsQueryKey(accountId), campaignId, 'jobs'] });
      }, GATHER_MS);
    },
    [accountId, campaignId, queryClient],
  );
  useRealtimeEvents(onEvent);
}
