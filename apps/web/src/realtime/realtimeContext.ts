import type { OutboxEventPayload } from '@parley/shared';
import { createContext, useContext, useEffect, useRef } from 'react';
import type { RealtimeStatus } from './connection';

export type RealtimeListener = (event: OutboxEventPayload) => void;

export interface RealtimeApi {
  /** Calls the listener with every event the socket receives; answers the way to stop. */
  subscribe: (listener: RealtimeListener) => () => void;
  status: RealtimeStatus;
}

export const RealtimeContext = createContext<RealtimeApi | null>(null);

/** The connection's state ('connecting' outside a provider: pages work without live updates). */
export const useRealtimeStatus = (): RealtimeStatus => useContext(RealtimeContext)?.status ?? 'connecting';

/** Listens to the websocket's events while the component is mounted; the latest listener is the one called. */
export function useRealtimeEvents(listener: RealtimeListener): void {
  const subscribe = useContext(RealtimeContext)?.subscribe;
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  }, [listener]);
  useEffect(() => {
    if (subscribe === undefined) return;
    return subscribe((event) => {
      latest.current(event);
    });
  }, [subscribe]);
}
