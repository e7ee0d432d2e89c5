import { AsyncLocalStorage } from 'node:async_hooks';

const background = new AsyncLocalStorage<true>();
/**
 * Whether anything reads the mark: only the embedded database's session pool does. Until then work runs
 * unmarked, and the process never turns on the promise hooks an AsyncLocalStorage needs on Node 20 (a call
 * for every promise made: about 2% of a PostgreSQL worker's CPU in `bench webhooks`).
 */
let marked = false;

/** The embedded database's session pool reads the mark from here on (sessionPool.ts). */
export function markBackgroundWork(): void {
  marked = true;
}

/**
 * Runs `work` (and everything it starts, timers included) as background work: bulk sending, the job
 * queue and the outbox. On the embedded database, whose one session everything shares, a request or a
 * realtime event waiting for the session goes before it (platform/db/sessionPool.ts). PostgreSQL has a pool of
 * sessions and ignores this: with it alone, nothing is marked.
 */
export function inBackground<T>(work: () => T): T {
  return marked ? background.run(true, work) : work();
}

export function isBackground(): boolean {
  return background.getStore() === true;
}
