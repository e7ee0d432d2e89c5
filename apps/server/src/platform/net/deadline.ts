import { GuardedFetchError } from './guardedFetchError.js';

/**
 * What ends a guarded fetch early: its time limit, or the caller's signal. An AbortController and its
 * listeners for every request were a large share of what the fetcher cost a webhook sender beyond the bare
 * HTTP client (docs/notifications.md, "Sending"); the kept-open connections take one callback here instead,
 * and a signal is made only for the exchanges that need one (a connection of their own).
 */
export class Deadline {
  private readonly timer: NodeJS.Timeout;
  private ended: Error | null = null;
  private listener: ((reason: Error) => void) | null = null;
  private controller: AbortController | null = null;
  private readonly onOuterAbort = (): void => {
    const reason: unknown = this.outer?.reason;
    this.end(reason instanceof Error ? reason : new Error(String(reason)));
  };

  constructor(
    timeoutMs: number,
    private readonly outer?: AbortSignal,
  ) {
    this.timer = setTimeout(() => {
      this.end(new GuardedFetchError('timeout', `no complete answer within ${String(timeoutMs)} ms`));
    }, timeoutMs);
    if (outer === undefined) return;
    if (outer.aborted) this.onOuterAbort();
    else outer.addEventListener('abort', this.onOuterAbort, { once: true });
  }

  /** Why the exchange must end (the deadline's own error, or the caller's reason), or null while it may go on. */
  get reason(): Error | null {
    return this.ended;
  }

  /** Calls `listener` once when the exchange must end (at once if it already must); a later call replaces it. */
  onEnd(listener: ((reason: Error) => void) | null): void {
    this.listener = listener;
    if (listener !== null && this.ended !== null) listener(this.ended);
  }

  /** The same as a signal, for an exchange that takes one. */
  get signal(): AbortSignal {
    if (this.controller === null) {
      this.controller = new AbortController();
      if (this.ended !== null) this.controller.abort(this.ended);
    }
    return this.controller.signal;
  }

  /** The exchange is over: no timer, no listener left behind. */
  clear(): void {
    clearTimeout(this.timer);
    this.listener = null;
    this.outer?.removeEventListener('abort', this.onOuterAbort);
  }

  private end(reason: Error): void {
    if (this.ended !== null) return;
    this.ended = reason;
    this.controller?.abort(reason);
    const listener = this.listener;
    this.listener = null;
    listener?.(reason);
  }
}
