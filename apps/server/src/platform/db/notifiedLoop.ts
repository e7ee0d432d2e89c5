import type { Logger } from 'pino';
import type { Database, Unlisten } from './client.js';

export interface NotifiedLoopOptions {
  database: Database;
  /** A NOTIFY on this channel starts the next round at once. */
  channel: string;
  /** How long an idle loop waits before looking again when no NOTIFY comes (retries, missed wake-ups). */
  pollIntervalMs: number;
  log: Logger;
  /** What a failed round is logged as. */
  failure: string;
  /** Told of each NOTIFY on the channel before the round it starts (what it may mean is the round's to know). */
  notified?: () => void;
  /** One round; true when it found work, so the next round starts at once. */
  round: () => Promise<boolean>;
}

/**
 * Runs rounds of work while there is some, then sleeps until a NOTIFY on its channel (or `wake()`) or the
 * poll interval. The outbox and message dispatchers both run on it. `stop` lets the round in progress end.
 */
export class NotifiedLoop {
  private running = false;
  private loop: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  private pendingWake = false;
  private unlisten: Unlisten | null = null;

  constructor(private readonly options: NotifiedLoopOptions) {}

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.unlisten = await this.options.database.listen(this.options.channel, () => {
      this.options.notified?.();
      this.wake();
    });
    this.loop = this.run();
  }

  /** Finishes the round in progress, then stops. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.wake();
    await this.unlisten?.();
    this.unlisten = null;
    await this.loop;
    this.loop = null;
  }

  wake(): void {
    this.pendingWake = true;
    this.wakeUp?.();
  }

  // Read through methods: both flags change while the loop awaits.
  private isRunning(): boolean {
    return this.running;
  }

  private hasPendingWake(): boolean {
    return this.pendingWake;
  }

  private async run(): Promise<void> {
    while (this.running) {
      this.pendingWake = false;
      let busy = false;
      try {
        busy = await this.options.round();
      } catch (error) {
        this.options.log.error({ err: error }, this.options.failure);
      }
      if (!this.isRunning()) break;
      if (busy || this.hasPendingWake()) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.options.pollIntervalMs);
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeUp = null;
    }
  }
}
