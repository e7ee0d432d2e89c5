// @ts-check
// The thread that owns the embedded database. It answers PostgreSQL wire-protocol messages from the
// main thread (pgliteBridge.ts), so SQL runs on a core of its own while the main thread serves
// requests. JavaScript, type-checked, because a worker thread loads its file as is in tests and in dist.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

/** @typedef {import('./pgliteBridge.js').PgliteWorkerOptions} PgliteWorkerOptions */
/** @typedef {import('./pgliteBridge.js').ToPgliteWorker} ToPgliteWorker */
/** @typedef {import('./pgliteBridge.js').FromPgliteWorker} FromPgliteWorker */

if (parentPort === null) throw new Error('pgliteWorker.js runs as a worker thread');
const port = parentPort;
/** @type {unknown} */
const given = workerData;
const options = /** @type {PgliteWorkerOptions} */ (given);

/** @param {FromPgliteWorker} message @param {ArrayBuffer[]} [transfer] */
const post = (message, transfer) => {
  port.postMessage(message, transfer ?? []);
};

/** @param {unknown} error */
const describe = (error) => (error instanceof Error ? error.message : String(error));

/** @returns {Promise<PGlite>} */
async function open() {
  const settings = { startParams: [...PGlite.defaultStartParams, ...options.settings] };
  const pglite =
    options.pgDataDir !== null
      ? new PGlite(options.pgDataDir, settings)
      : new PGlite({ ...settings, ...(options.template === null ? {} : { loadDataDir: new Blob([options.template]) }) });
  await pglite.waitReady;
  return pglite;
}

/** @param {Uint8Array[]} chunks */
function joined(chunks) {
  let length = 0;
  for (const chunk of chunks) length += chunk.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

/** @param {PGlite} pglite @param {ToPgliteWorker} message */
async function handle(pglite, message) {
  switch (message.type) {
    case 'protocol': {
      /** @type {Uint8Array[]} */
      const chunks = [];
      // The callback's buffer is reused by PGlite: keep copies.
      await pglite.runExclusive(() =>
        pglite.execProtocolRawStream(message.bytes, { onRawData: (data) => chunks.push(data.slice()) }),
      );
      const bytes = joined(chunks);
      post({ type: 'protocol', connection: message.connection, bytes }, [bytes.buffer]);
      return;
    }
    case 'ended':
      // A connection that went away inside a transaction must not leave it open for the next one.
      if (pglite.isInTransaction()) await pglite.exec('rollback');
      return;
    case 'dump': {
      const dump = await pglite.dumpDataDir('none');
      const bytes = new Uint8Array(await dump.arrayBuffer());
      post({ type: 'dump', bytes }, [bytes.buffer]);
      return;
    }
    case 'close':
      await pglite.close();
      post({ type: 'closed' });
      port.close();
      return;
  }
}

try {
  const pglite = await open();
  // One message at a time, in order: the session is single and the protocol is a conversation.
  let queue = Promise.resolve();
  port.on('message', (/** @type {ToPgliteWorker} */ message) => {
    queue = queue.then(
      () => handle(pglite, message),
    ).catch((/** @type {unknown} */ error) => {
      post({ type: 'failed', message: describe(error) });
    });
  });
  post({ type: 'ready' });
} catch (error) {
  post({ type: 'failed', message: describe(error) });
  port.close();
}
