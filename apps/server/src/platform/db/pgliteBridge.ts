import { Duplex } from 'node:stream';
import { Worker } from 'node:worker_threads';

export interface PgliteWorkerOptions {
  /** PGlite's data directory; null keeps the database in memory (tests). */
  readonly pgDataDir: string | null;
  /** A dump (dumpDataDir) to start an in-memory database from. */
  readonly template: Uint8Array | null;
  /** Server settings added to PGlite's start parameters (`-c name=value` pairs). */
  readonly settings: readonly string[];
}

export type ToPgliteWorker =
  | { readonly type: 'protocol'; readonly connection: number; readonly bytes: Uint8Array }
  | { readonly type: 'ended'; readonly connection: number }
  | { readonly type: 'dump' }
  | { readonly type: 'close' };

export type FromPgliteWorker =
  | { readonly type: 'ready' }
  | { readonly type: 'protocol'; readonly connection: number; readonly bytes: Uint8Array }
  | { readonly type: 'dump'; readonly bytes: Uint8Array }
  | { readonly type: 'closed' }
  | { readonly type: 'failed'; readonly message: string };

const STARTUP_PROTOCOL = 196_608; // 3.0
const TERMINATE = 0x58; // 'X'

/**
 * One client connection to the database thread, as a socket-like stream that node-postgres speaks its
 * protocol over. Writes are cut into whole messages (PGlite takes nothing less); Terminate is not
 * passed on, because the session outlives the connection.
 */
class PgliteConnection extends Duplex {
  private buffered: Buffer = Buffer.alloc(0);
  private started = false;
  private flushScheduled = false;

  constructor(
    readonly id: number,
    private readonly bridge: PgliteBridge,
  ) {
    super();
  }

  // The socket methods node-postgres calls.
  connect(): this {
    process.nextTick(() => this.emit('connect'));
    return this;
  }
  setNoDelay(): this {
    return this;
  }
  setKeepAlive(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }

  deliver(bytes: Uint8Array): void {
    this.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }

  override _read(): void {
    // Data is pushed as the database thread answers.
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    // node-postgres writes a query's messages (parse, bind, describe, execute, sync) one by one in the
    // same tick: send them to the thread together.
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      queueMicrotask(() => {
        this.flushScheduled = false;
        this.flush();
      });
    }
    callback();
  }

  private flush(): void {
    const messages: Buffer[] = [];
    let length = 0;
    let offset = 0;
    for (;;) {
      const rest = this.buffered.length - offset;
      if (!this.started) {
        if (rest < 8) break;
        const size = this.buffered.readInt32BE(offset);
        if (this.buffered.readInt32BE(offset + 4) !== STARTUP_PROTOCOL) {
          this.destroy(new Error('Only the PostgreSQL 3.0 protocol without SSL is spoken here'));
          return;
        }
        if (rest < size) break;
        this.started = true;
        messages.push(this.buffered.subarray(offset, offset + size));
        length += size;
        offset += size;
        continue;
      }
      if (rest < 5) break;
      const size = 1 + this.buffered.readInt32BE(offset + 1);
      if (rest < size) break;
      if (this.buffered[offset] !== TERMINATE) {
        messages.push(this.buffered.subarray(offset, offset + size));
        length += size;
      }
      offset += size;
    }
    this.buffered = this.buffered.subarray(offset);
    if (messages.length === 0) return;
    // A fresh buffer of its own, moved to the thread: never a slice of Node's shared pool.
    const bytes = new Uint8Array(length);
    let at = 0;
    for (const message of messages) {
      bytes.set(message, at);
      at += message.length;
    }
    this.bridge.send({ type: 'protocol', connection: this.id, bytes }, [bytes.buffer]);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.push(null);
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.bridge.ended(this);
    callback(error);
  }
}

/**
 * The database thread (pgliteWorker.js) and the connections to it. PGlite is one session, so the
 * caller keeps to one connection at a time (a pool of one); a connection that ends has its open
 * transaction rolled back.
 */
export class PgliteBridge {
  private readonly connections = new Map<number, PgliteConnection>();
  private nextConnection = 1;
  private dumps: { resolve: (bytes: Uint8Array) => void; reject: (error: Error) => void }[] = [];
  private closing: (() => void) | null = null;
  private failure: Error | null = null;

  private constructor(private readonly worker: Worker) {}

  static async start(options: PgliteWorkerOptions): Promise<PgliteBridge> {
    const worker = new Worker(new URL('./pgliteWorker.js', import.meta.url), { workerData: options });
    const bridge = new PgliteBridge(worker);
    await new Promise<void>((resolve, reject) => {
      const early = (error: Error): void => {
        reject(error);
      };
      worker.once('error', early);
      worker.once('exit', () => {
        reject(new Error('The database thread stopped while starting'));
      });
      worker.once('message', (message: FromPgliteWorker) => {
        worker.off('error', early);
        if (message.type === 'ready') resolve();
        else reject(new Error(message.type === 'failed' ? message.message : 'The database thread did not start'));
      });
    });
    worker.removeAllListeners('exit');
    worker.on('message', (message: FromPgliteWorker) => {
      bridge.receive(message);
    });
    worker.on('error', (error) => {
      bridge.fail(error);
    });
    worker.on('exit', () => {
      bridge.fail(new Error('The database thread stopped'));
    });
    return bridge;
  }

  /** A new connection for node-postgres (its `stream` option). */
  connection(): Duplex {
    const connection = new PgliteConnection(this.nextConnection++, this);
    if (this.failure !== null) {
      const failure = this.failure;
      process.nextTick(() => connection.destroy(failure));
    } else {
      this.connections.set(connection.id, connection);
    }
    return connection;
  }

  /** The whole database as a tar file (PGlite's dumpDataDir). */
  async dump(): Promise<Uint8Array> {
    if (this.failure !== null) throw this.failure;
    return new Promise((resolve, reject) => {
      this.dumps.push({ resolve, reject });
      this.send({ type: 'dump' });
    });
  }

  /** Closes the database (writing what it holds) and ends the thread. */
  async close(): Promise<void> {
    if (this.failure !== null) return;
    const exited = new Promise<void>((resolve) => {
      this.worker.once('exit', () => {
        resolve();
      });
    });
    await new Promise<void>((resolve) => {
      this.closing = resolve;
      this.send({ type: 'close' });
    });
    await exited;
  }

  send(message: ToPgliteWorker, transfer: ArrayBuffer[] = []): void {
    if (this.failure !== null) return;
    this.worker.postMessage(message, transfer);
  }

  ended(connection: PgliteConnection): void {
    if (!this.connections.delete(connection.id)) return;
    this.send({ type: 'ended', connection: connection.id });
  }

  private receive(message: FromPgliteWorker): void {
    switch (message.type) {
      case 'protocol':
        this.connections.get(message.connection)?.deliver(message.bytes);
        return;
      case 'dump':
        this.dumps.shift()?.resolve(message.bytes);
        return;
      case 'closed':
        this.failure = new Error('The database is closed');
        this.closing?.();
        return;
      case 'ready':
        return;
      case 'failed':
        this.fail(new Error(`The database thread failed: ${message.message}`));
        return;
    }
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const connection of this.connections.values()) connection.destroy(error);
    this.connections.clear();
    for (const dump of this.dumps.splice(0)) dump.reject(error);
    this.closing?.();
  }
}
