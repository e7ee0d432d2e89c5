import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { saveSimulatorSettings } from '../carriers/simulator/settings.js';
import { SimulatorCarrier } from '../carriers/simulator/simulatorCarrier.js';
import { queryRows, type PostgresDatabase } from '../../platform/db/client.js';
import { ledgerAndBalance } from '../../test/accounts.js';
import { openTestDatabase } from '../../test/databases.js';
import { silentLogger } from '../../test/logger.js';
import { MessageDispatcher } from './dispatcher.js';
import { createSendingSetup, messageRows, queueTestMessages, RecordingCarrier, registryOf } from './test/dispatcherFixtures.js';
import { UNKNOWN_OUTCOME_CODE } from './dispatcherRecovery.js';
import { createMessageHandlers } from './handlers.js';

/*
 * A worker process running a dispatcher is SIGKILLed mid-batch (its messages claimed and submitted, no
 * result written), then a dispatcher of this process recovers. PostgreSQL only: PGlite is one process.
 */

/** Run from its source through tsx: test code is never built (docs/decisions.md). */
const workerScript = fileURLToPath(new URL('./test/dispatcherTestWorker.ts', import.meta.url));
const repositoryRoot = fileURLToPath(new URL('../../../../..', import.meta.url));

interface Worker {
  child: ChildProcess;
  submitted: string[];
  waitForSubmits: (n: number) => Promise<void>;
  exited: Promise<void>;
}

function startWorker(env: Record<string, string>): Worker {
  const child = spawn(process.execPath, ['--import', 'tsx', workerScript], {
    cwd: repositoryRoot,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const submitted: string[] = [];
  let buffer = '';
  let stderr = '';
  const waiters = new Set<() => void>();
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = JSON.parse(buffer.slice(0, nl)) as { submitted?: string };
      buffer = buffer.slice(nl + 1);
      if (line.submitted !== undefined) submitted.push(line.submitted);
    }
    for (const w of waiters) w();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      resolve();
    });
  });
  return {
    child,
    submitted,
    exited,
    waitForSubmits: (n) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          reject(new Error(`only ${submitted.length} submits: ${stderr}`));
        }, 30_000);
        const check = () => {
          if (submitted.length >= n) {
            clearTimeout(timer);
            waiters.delete(check);
            resolve();
          }
        };
        waiters.add(check);
        void exited.then(() => {
          reject(new Error(`the worker exited: ${stderr}`));
        });
        check();
      }),
  };
}

const describePostgres = process.env.TEST_DATABASE_URL ? describe : describe.skip;

describePostgres('a dispatcher worker killed mid-batch (postgres)', () => {
  let database: PostgresDatabase;
  const log = silentLogger();
  const workers: Worker[] = [];

  beforeAll(async () => {
    const opened = await openTestDatabase('postgres');
    if (opened.kind !== 'postgres') throw new Error('expected PostgreSQL');
    database = opened;
  });
  afterEach(async () => {
    for (const worker of workers.splice(0)) {
      worker.child.kill('SIGKILL');
      await worker.exited;
    }
  });
  afterAll(async () => {
    await database.close();
  });

  const statuses = async (accountId: string) =>
    queryRows<{ status: string; error_code: string | null; n: number }>(
      database.db,
      sql`select status, error_code, count(*)::int as n from messages where account_id = ${accountId}
          group by status, error_code order by status`,
    );

  it('never submits a message twice to a carrier that cannot take a repeat: the stranded ones fail unknown-outcome, refunded', async () => {
    const s = await createSendingSetup(database.db, { carrier: 'smpp', balance: '10' });
    const ids = await queueTestMessages(database.db, s, { count: 80, price: '0.0100' });
    const worker = startWorker({ DATABASE_URL: database.url, CARRIER: 'recording', BATCH_SIZE: '50', SUBMIT_CONCURRENCY: '4' });
    workers.push(worker);
    await worker.waitForSubmits(4);
    worker.child.kill('SIGKILL');
    await worker.exited;
    // Its claim of 50 is stranded 'sending'; 4 of them reached the carrier, which cannot be asked which.
    expect(await statuses(s.accountId)).toEqual([
      { status: 'queued', error_code: null, n: 30 },
      { status: 'sending', error_code: null, n: 50 },
    ]);

    const carrier = new RecordingCarrier('smpp');
    const dispatcher = new MessageDispatcher({ database, carriers: registryOf(carrier), log, leaseSeconds: 1, batchSize: 100 });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const round = await dispatcher.dispatchOnce();
    expect(round.recovered).toEqual({ requeued: 0, failed: 50 });
    expect(round.sent).toBe(30);

    const submittedTwice = carrier.submits.filter((m) => worker.submitted.includes(m.id));
    expect(submittedTwice).toEqual([]);
    expect(new Set([...worker.submitted, ...carrier.submits.map((m) => m.id)]).size).toBe(worker.submitted.length + carrier.submits.length);
    expect(await statuses(s.accountId)).toEqual([
      { status: 'failed', error_code: UNKNOWN_OUTCOME_CODE, n: 50 },
      { status: 'sent', error_code: null, n: 30 },
    ]);
    const rows = await messageRows(database.db, ids);
    expect(rows.filter((r) => r.status === 'failed').every((r) => r.refundedAt !== null)).toBe(true);
    const { ledger, balance } = await ledgerAndBalance(database.db, s.accountId);
    expect(balance).toBe(ledger);
    // 80 charged, 50 given back.
    expect(balance).toBe('9.7000');
  });

  it('loses nothing with the simulator: the stranded batch is submitted again, taken as the same messages, and delivered', async () => {
    await saveSimulatorSettings(database.db, { seed: 5, latencyMs: 50, failureRate: 0, messagesPerSecond: 100_000, errorCodes: [] });
    const s = await createSendingSetup(database.db, { carrier: 'simulator', balance: '10' });
    const ids = await queueTestMessages(database.db, s, { count: 120, price: '0.0100' });
    const worker = startWorker({ DATABASE_URL: database.url, CARRIER: 'simulator', BATCH_SIZE: '50' });
    workers.push(worker);
    await worker.waitForSubmits(50);
    worker.child.kill('SIGKILL');
    await worker.exited;
    const [written] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from simulator_messages where kind = 'mt'`);
    expect(written?.n).toBe(50);

    const simulator = new SimulatorCarrier({ database, log, pollIntervalMs: 20, leaseMs: 500 });
    const carriers = registryOf(simulator);
    await carriers.start(createMessageHandlers({ database, log }));
    const dispatcher = new MessageDispatcher({ database, carriers, log, leaseSeconds: 1, pollIntervalMs: 20 });
    await dispatcher.start();
    try {
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline) {
        const rows = await statuses(s.accountId);
        if (rows.length === 1 && rows[0]?.status === 'delivered') break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await dispatcher.stop();
      await carriers.stop();
    }
    expect(await statuses(s.accountId)).toEqual([{ status: 'delivered', error_code: null, n: 120 }]);
    // One simulated message per message: the repeated submits were the same messages.
    const perRef = await queryRows<{ ref: string; n: number }>(
      database.db,
      sql`select ref, count(*)::int as n from simulator_messages where kind = 'mt' group by ref`,
    );
    expect(perRef.length).toBe(120);
    expect(perRef.every((r) => r.n === 1)).toBe(true);
    expect(new Set(perRef.map((r) => r.ref))).toEqual(new Set(ids));
    const { ledger, balance } = await ledgerAndBalance(database.db, s.accountId);
    expect(balance).toBe(ledger);
    expect(balance).toBe('8.8000');
  });
});
