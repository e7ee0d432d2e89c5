type Cleanup = () => Promise<void>;

/**
 * Owns what a run starts. Cleanups run last-in first-out, each once, whether the run succeeded, failed or
 * was interrupted. Once closed, the signal is aborted so the run unwinds instead of starting more, and
 * anything it still hands over is cleaned up at once.
 */
export class Scope {
  private readonly cleanups: Cleanup[] = [];
  private readonly running = new Set<Promise<void>>();
  private readonly controller = new AbortController();

  constructor(private readonly onError: (error: unknown) => void) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  defer(cleanup: Cleanup): void {
    if (this.signal.aborted) {
      void this.track(cleanup);
      this.signal.throwIfAborted();
    }
    this.cleanups.push(cleanup);
  }

  async close(): Promise<void> {
    this.controller.abort(new Error('the run was stopped'));
    for (let cleanup = this.cleanups.pop(); cleanup !== undefined; cleanup = this.cleanups.pop()) {
      await this.track(cleanup);
    }
    // A second caller waits for the cleanups the first one is still running.
    await Promise.all(this.running);
  }

  private track(cleanup: Cleanup): Promise<void> {
    const done = cleanup().catch(this.onError);
    this.running.add(done);
    return done.finally(() => this.running.delete(done));
  }
}
