import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, type PgliteDatabase } from './client.js';
import { inBackground } from './sessionPriority.js';

const opened: PgliteDatabase[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const database of opened.splice(0)) await database.close();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function open(dataDir: string): Promise<PgliteDatabase> {
  const database = await openPglite(dataDir);
  opened.push(database);
  return database;
}

/** Lets every pending callback run: the session's hand-over happens on release, in order. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('the embedded database session', () => {
  // One database for the tests that only borrow its session and leave it idle: a new one takes seconds to
  // start (initdb in WebAssembly), seven of them most of this file's time.
  let shared: PgliteDatabase;
  beforeAll(async () => {
    shared = await openPglite(null);
  });
  afterAll(async () => {
    await shared.close();
  });

  it('lends the session to requests before background work that waited longer', async () => {
    const { pool } = shared;
    const holder = await pool.connect();
    const order: string[] = [];
    const waits = [
      inBackground(() => pool.query('select 1').then(() => order.push('campaign batch 1'))),
      inBackground(() => pool.query('select 1').then(() => order.push('campaign batch 2'))),
      pool.query('select 1').then(() => order.push('incoming message')),
      inBackground(() => pool.query('select 1').then(() => order.push('campaign batch 3'))),
      pool.query('select 1').then(() => order.push('realtime event')),
    ];
    await settle();
    expect(order).toEqual([]);
    holder.release();
    await Promise.all(waits);
    expect(order).toEqual(['incoming message', 'realtime event', 'campaign batch 1', 'campaign batch 2', 'campaign batch 3']);
  });

  it('never starves background work: the oldest waiter gets every ninth lease', async () => {
    const { pool } = shared;
    const holder = await pool.connect();
    const order: string[] = [];
    const background = inBackground(() => pool.query('select 1').then(() => order.push('background')));
    // Requests keep coming: each one that runs queues the next, so a request is always waiting.
    let left = 12;
    const request = async (): Promise<void> => {
      const queued = left > 0 ? (left -= 1, pool.query('select 1')) : null;
      if (queued === null) return;
      await queued;
      order.push('request');
      await request();
    };
    const requests = [request(), request()];
    await settle();
    holder.release();
    await Promise.all([background, ...requests]);
    expect(order.indexOf('background')).toBeLessThanOrEqual(8);
    expect(order.filter((o) => o === 'request')).toHaveLength(12);
  });

  it("keeps the session for a request's next statement rather than lend it to background work waiting", async () => {
    const { pool } = shared;
    const request = await pool.connect();
    const order: string[] = [];
    const background = inBackground(() => pool.query('select 1').then(() => order.push('background')));
    await settle();
    // The request's statement ends and its next one follows in the same turn of the event loop.
    request.release();
    const next = pool.query('select 1').then(() => order.push("the request's next statement"));
    await Promise.all([background, next]);
    expect(order).toEqual(["the request's next statement", 'background']);
  });

  it('keeps a transaction to its caller: others wait, and see only what it committed', async () => {
    const { pool } = shared;
    await pool.query('create table t (n int)');
    const tx = await pool.connect();
    await tx.query('begin');
    await tx.query('insert into t values (1)');
    let seen: number | null = null;
    const reader = pool.query<{ count: string }>('select count(*) from t').then((r) => (seen = Number(r.rows[0]?.count)));
    await settle();
    expect(seen).toBeNull();
    await tx.query('rollback');
    tx.release();
    await reader;
    expect(seen).toBe(0);
  });

  it('survives a failed statement and a failed transaction', async () => {
    const { pool } = shared;
    await expect(pool.query('select 1/0')).rejects.toThrow(/division by zero/);
    const tx = await pool.connect();
    await tx.query('begin');
    await expect(tx.query('select * from no_such_table')).rejects.toThrow(/does not exist/);
    await tx.query('rollback');
    tx.release();
    expect((await pool.query<{ n: number }>('select 2 as n')).rows).toEqual([{ n: 2 }]);
  });

  it('delivers a NOTIFY to its listeners, and no more after they unlisten', async () => {
    const database = shared;
    const heard: string[] = [];
    const unlisten = await database.listen('parley_test', (payload) => heard.push(payload));
    await database.pool.query(`select pg_notify('parley_test', 'one')`);
    await database.pool.query(`select pg_notify('parley_other', 'not ours')`);
    await unlisten();
    await database.pool.query(`select pg_notify('parley_test', 'two')`);
    expect(heard).toEqual(['one']);
  });

  it('refuses new work once closed, and keeps what was committed in its data directory', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-session-'));
    dirs.push(dir);
    const first = await openPglite(dir);
    await first.pool.query('create table kept (n int)');
    await first.pool.query('insert into kept values (7)');
    await first.close();
    await expect(first.pool.query('select 1')).rejects.toThrow(/closed/);
    const second = await open(dir);
    expect((await second.pool.query<{ n: number }>('select n from kept')).rows).toEqual([{ n: 7 }]);
  });
});
