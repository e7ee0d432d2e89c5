import type pg from 'pg';
import { isBackground, markBackgroundWork } from './sessionPriority.js';

/** A leased session: node-postgres's client, given back with release() as a pool's client is. */
export type SessionClient = pg.Client & { release(error?: Error | boolean): void };

interface Waiter {
  readonly background: boolean;
  resolve(): void;
  reject(error: Error): void;
}

/** How many leases in a row may go to requests before a waiting background lease gets one. */
const FOREGROUND_STREAK = 8;

/**
 * The embedded database's one session, lent to one caller at a time like a pool of one connection,
 * but not first come first served: a request or a realtime event goes before background work
 * (sessionPriority.ts), so an incoming message waits for at most the statement or transaction in
 * progress, not for the campaign batches queued before it; and a request's session is kept to the end
 * of the event loop's turn, for its next statement. Every FOREGROUND_STREAK-th lease goes to
 * the oldest waiter, so background work is never starved. The class name holds "Pool": drizzle
 * leases a client for each transaction from anything so named.
 */
export class SessionPool {
  private client: pg.Client | null = null;
  private connecting: Promise<pg.Client> | null = null;
  private leased = false;
  private lease = 0;
  private readonly waiting: Waiter[] = [];
  private foregroundStreak = 0;
  private lingering: NodeJS.Immediate | null = null;
  private requestWaitedAt = Number.NEGATIVE_INFINITY;
  private ended: Promise<void> | null = null;

  constructor(
    private readonly options: {
      /** A new, unconnected client for the session. */
      readonly newClient: () => pg.Client;
      /** Called with each client once connected (notification handlers, LISTENs to restore). */
      readonly onConnect: (client: pg.Client) => Promise<void>;
    },
  ) {
    markBackgroundWork();
  }

  /** Waits for the session and lends it; the caller must release() it. */
  async connect(): Promise<SessionClient> {
    if (this.ended !== null) throw new Error('The database is closed');
    const background = isBackground();
    if (this.lingering !== null && !background) {
      // Kept for a request (below): it is this one's.
      clearImmediate(this.lingering);
      this.lingering = null;
    } else if (this.leased) {
      if (!background) this.requestWaitedAt = performance.now();
      await new Promise<void>((resolve, reject) => {
        this.waiting.push({ background, resolve, reject });
      });
    }
    this.leased = true;
    const lease = ++this.lease;
    let client: pg.Client;
    try {
      client = await this.open();
    } catch (error) {
      this.handOver();
      throw error;
    }
    let released = false;
    return Object.assign(client, {
      release: (error?: Error | boolean) => {
        if (released || lease !== this.lease) return;
        released = true;
        if (error !== undefined && error !== false) this.discard(client);
        if (background || this.waiting.some((w) => !w.background)) {
          this.handOver();
          return;
        }
        // A request's next statement comes within this turn of the event loop: keep the session for it
        // until the turn ends rather than lend it to a background transaction it would wait for.
        this.lingering = setImmediate(() => {
          this.lingering = null;
          this.handOver();
        });
      },
    });
  }

  /** Whether a request had to wait for the session within the last `ms` (1 s): background work keeps short then. */
  contended(ms = 1000): boolean {
    return performance.now() - this.requestWaitedAt < ms;
  }

  /** One statement on the session, leased for it alone. */
  async query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    statement: string | pg.QueryConfig,
    values?: unknown[],
  ): Promise<pg.QueryResult<R>> {
    const client = await this.connect();
    try {
      return await client.query<R>(statement, values);
    } finally {
      client.release();
    }
  }

  /** Refuses new leases, lets the one in progress finish, then disconnects. */
  end(): Promise<void> {
    this.ended ??= (async () => {
      for (const waiter of this.waiting.splice(0)) waiter.reject(new Error('The database is closed'));
      if (this.leased) await new Promise<void>((resolve) => this.waiting.push({ background: false, resolve, reject: () => { resolve(); } }));
      const client = this.client;
      this.client = null;
      await client?.end().catch(() => undefined);
    })();
    return this.ended;
  }

  private async open(): Promise<pg.Client> {
    if (this.client !== null) return this.client;
    this.connecting ??= (async () => {
      const client = this.options.newClient();
      client.on('error', () => {
        this.discard(client);
      });
      try {
        await client.connect();
        await this.options.onConnect(client);
      } catch (error) {
        await client.end().catch(() => undefined);
        throw error;
      }
      this.client = client;
      return client;
    })().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  /** Drops a client that failed; the next lease connects again. */
  private discard(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = null;
    void client.end().catch(() => undefined);
  }

  private handOver(): void {
    const next = this.next();
    if (next === undefined) {
      this.leased = false;
      return;
    }
    next.resolve();
  }

  private next(): Waiter | undefined {
    const foreground = this.waiting.findIndex((w) => !w.background);
    if (foreground >= 0 && this.foregroundStreak < FOREGROUND_STREAK) {
      this.foregroundStreak += 1;
      return this.waiting.splice(foreground, 1)[0];
    }
    this.foregroundStreak = 0;
    return this.waiting.shift();
  }
}
