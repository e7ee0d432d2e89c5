import { ACCESS_CHANGED_EVENT, type AccessChangedData } from '@parley/shared';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useAuth } from 'react-oidc-context';
import { useConfig } from '../app/configContext';
import { createRealtimeConnection, type RealtimeConnection, type RealtimeStatus } from './connection';
import { RealtimeContext, type RealtimeApi, type RealtimeListener } from './realtimeContext';

interface RealtimeProviderProps {
  accountId: string | null;
  /** The cached queries events keep up to date (the inbox's), fetched again when events may have been missed. */
  isLiveQuery: (queryKey: QueryKey, accountId: string) => boolean;
  children: ReactNode;
}

/**
 * The signed-in session's websocket (one per session), for the pages below it. It sends the user's access
 * token and the chosen account, moves to another account when the user switches, and after every
 * reconnection fetches the live queries (the inbox) again, since events may have been missed while it was away.
 */
export const RealtimeProvider = ({ accountId, isLiveQuery, children }: RealtimeProviderProps) => {
  const auth = useAuth();
  const token = auth.user?.access_token ?? null;
  const { realtime } = useConfig();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<RealtimeStatus>('connecting');
  const [listeners] = useState(() => new Set<RealtimeListener>());
  // Read at each (re)connection: the renewed token and the account chosen last.
  const latest = useRef({ token, accountId });
  const connection = useRef<RealtimeConnection | null>(null);
  const signedIn = token !== null;

  useEffect(() => {
    if (!signedIn) return;
    const created = createRealtimeConnection({
      path: realtime.path,
      auth: () => latest.current,
      onEvent: (event) => {
        // The server moved this socket to the rooms the user may see now: what the inbox shows may differ.
        if (event.type === ACCESS_CHANGED_EVENT) {
          const changed = (event.data as Partial<AccessChangedData> | null)?.accountId;
          if (changed !== undefined) void queryClient.invalidateQueries({ predicate: (query) => isLiveQuery(query.queryKey, changed) });
        }
        for (const listener of listeners) listener(event);
      },
      onReady: ({ reconnected, accountId: joined, at }) => {
        if (joined === null) return;
        // After a reconnection anything may have been missed. The first time, only what was fetched before the
        // socket joined its rooms: an event between that fetch and the join would be lost otherwise.
        void queryClient.invalidateQueries({
          predicate: (query) =>
            isLiveQuery(query.queryKey, joined) &&
            (reconnected || (query.state.dataUpdatedAt > 0 && query.state.dataUpdatedAt < at)),
        });
      },
      onStatus: setStatus,
    });
    connection.current = created;
    return () => {
      connection.current = null;
      created.close();
    };
  }, [signedIn, realtime.path, queryClient, listeners, isLiveQuery]);

  useEffect(() => {
    const accountChanged = latest.current.accountId !== accountId;
    latest.current = { token, accountId };
    if (accountChanged) connection.current?.subscribe(accountId);
    connection.current?.retry();
  }, [token, accountId]);

  const subscribe = useCallback(
    (listener: RealtimeListener) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    [listeners],
  );
  const api = useMemo<RealtimeApi>(() => ({ subscribe, status }), [subscribe, status]);

  return (
    <RealtimeContext value={api}>
      {children}
    </RealtimeContext>
  );
};
