import { AsyncLocalStorage } from 'node:async_hooks';

const background = new AsyncLocalStorage<true>();

/**
 * Runs `work` (and everything it starts, timers included) as background work: bulk sending, the job
 * queue and the outbox. On the embedded database, whose one session everything shares, a request or a
 * realtime event waiting for the session goes before it (platform/db/sessionPool.ts). PostgreSQL has a pool of
 * sessions and ignores this.
 */
export function inBackground<T>(work: () => T): T {
  return background.run(true, work);
}

export function isBackground(): boolean {
  return background.getStore() === true;
}
