import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutboxEventPayload } from '@parley/shared';
import type { Database } from '../db/client.js';
import { events } from '../db/schema/index.js';
import { newAccountId, openTestDatabase, testDatabaseKinds } from '../test/databases.js';
import { silentLogger } from '../test/logger.js';
import { OutboxDispatcher, type EventSubscriber } from './dispatcher.js';
import { publishEvent, publishEvents } from './outbox.js';

class Recorder implements EventSubscriber {
  readonly name = 'recorder';
  readonly seen: OutboxEventPayload[] = [];
  failFor: ((e: OutboxEventPayload) => boolean) | null = null;
  deliver(event: OutboxEventPayload): Promise<void> {
    if (this.failFor?.(event)) return Promise.reject(new Error('subscriber is down'));
    this.seen.push(event);
    return Promise.resolve();
  }
  of(accountId: string): OutboxEventPayload[] {
    return this.seen.filter((e) => e.accountId === accountId);
  }
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.each(testDatabaseKinds)('outbox on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  it('writes events in the caller transaction: a rollback leaves none', async () => {
    const accountId = newAccountId();
    await expect(
      database.db.transaction(async (tx) => {
        await publishEvent(tx, { type: 'contactCreated', accountId, data: { n: 1 } });
        throw new Error('the command failed');
      }),
    ).rejects.toThrow('the command failed');
    const rows = await database.db.select().from(events).where(eq(events.accountId, accountId));
    expect(rows).toHaveLength(0);
  });

  it("hands an incoming message on in the interactive lane while a campaign's status events wait in the bulk lane", async () => {
    const recorder = new Recorder();
    const accountId = newAccountId();
    await publishEvents(
      database.db,
      Array.from({ length: 300 }, (_, i) => ({ type: 'messageStatus', accountId, data: { i } })),
    );
    await publishEvent(database.db, { type: 'messageReceived', accountId, data: { text: 'a question' } });
    const lanes = await database.db.select({ type: events.type, lane: events.lane }).from(events).where(eq(events.accountId, accountId));
    expect(new Set(lanes.filter((e) => e.type === 'messageStatus').map((e) => e.lane))).toEqual(new Set([1]));
    expect(lanes.find((e) => e.type === 'messageReceived')?.lane).toBe(0);

    const dispatcher = new OutboxDispatcher(database, [recorder], silentLogger(), { batchSize: 100 });
    // One round of each lane: the message goes out although 300 older status events are queued.
    expect(await dispatcher.dispatchOnce()).toBe(true);
    const seen = recorder.of(accountId);
    expect(seen.filter((e) => e.type === 'messageReceived')).toHaveLength(1);
    expect(seen.filter((e) => e.type === 'messageStatus').map((e) => (e.data as { i: number }).i)).toEqual(
      Array.from({ length: 100 }, (_, i) => i),
    );
    // The bulk lane keeps its own order and delivers the rest.
    while (await dispatcher.dispatchOnce()) {
      // until both lanes are empty
    }
    expect(recorder.of(accountId).filter((e) => e.type === 'messageStatus').map((e) => (e.data as { i: number }).i)).toEqual(
      Array.from({ length: 300 }, (_, i) => i),
    );
  });

  it('dispatches committed events once each, in order per account', async () => {
    const recorder = new Recorder();
    const a = newAccountId();
    const b = newAccountId();
    await database.db.transaction(async (tx) => {
      await publishEvents(tx, [
        { type: 't1', accountId: a, data: { i: 1 } },
        { type: 't1', accountId: b, data: { i: 1 } },
        { type: 't2', accountId: a, data: { i: 2 } },
      ]);
    });
    await publishEvent(database.db, { type: 't3', accountId: a, data: { i: 3 } });
    const dispatcher = new OutboxDispatcher(database, [recorder], silentLogger(), { pollIntervalMs: 50 });
    await dispatcher.start();
    try {
      await until(() => recorder.of(a).length === 3 && recorder.of(b).length === 1);
      expect(recorder.of(a).map((e) => e.data)).toEqual([{ i: 1 }, { i: 2 }, { i: 3 }]);
      // Woken by NOTIFY, an event published while it runs goes out too.
      await publishEvent(database.db, { type: 't4', accountId: b, data: { i: 4 } });
      await until(() => recorder.of(b).length === 2);
    } finally {
      await dispatcher.stop();
    }
    const ids = recorder.seen.map((e) => Number(e.id));
    const rows = await database.db.select().from(events).where(inArray(events.id, ids));
    expect(rows.every((r) => r.dispatchedAt !== null)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('keeps a failed event and the later ones of its account pending, and retries them', async () => {
    const recorder = new Recorder();
    const failing = newAccountId();
    const healthy = newAccountId();
    recorder.failFor = (e) => e.accountId === failing && (e.data as { i: number }).i === 1;
    await publishEvents(database.db, [
      { type: 'x', accountId: failing, data: { i: 1 } },
      { type: 'x', accountId: healthy, data: { i: 1 } },
      { type: 'x', accountId: failing, data: { i: 2 } },
    ]);
    const dispatcher = new OutboxDispatcher(database, [recorder], silentLogger(), { pollIntervalMs: 30 });
    await dispatcher.start();
    try {
      await until(() => recorder.of(healthy).length === 1);
      await until(async () => {
        const [row] = await database.db.select().from(events).where(eq(events.accountId, failing)).limit(1);
        return (row?.attempts ?? 0) >= 2;
      });
      expect(recorder.of(failing)).toHaveLength(0);
      const [first] = await database.db.select().from(events).where(eq(events.accountId, failing)).limit(1);
      expect(first?.lastError).toBe('subscriber is down');
      recorder.failFor = null;
      await until(() => recorder.of(failing).length === 2);
      expect(recorder.of(failing).map((e) => e.data)).toEqual([{ i: 1 }, { i: 2 }]);
    } finally {
      await dispatcher.stop();
    }
  });

  it('delivers what was pending before a restart', async () => {
    const accountId = newAccountId();
    // Written while no dispatcher runs, as if the process died right after the commit.
    await publishEvents(database.db, [
      { type: 'survives', accountId, data: { i: 1 } },
      { type: 'survives', accountId, data: { i: 2 } },
    ]);
    const recorder = new Recorder();
    const dispatcher = new OutboxDispatcher(database, [recorder], silentLogger(), { pollIntervalMs: 50 });
    await dispatcher.start();
    try {
      await until(() => recorder.of(accountId).length === 2);
    } finally {
      await dispatcher.stop();
    }
  });

  it('lets only one of two dispatchers deliver a given event', async () => {
    const accountId = newAccountId();
    const first = new Recorder();
    const second = new Recorder();
    const d1 = new OutboxDispatcher(database, [first], silentLogger(), { pollIntervalMs: 10, batchSize: 3 });
    const d2 = new OutboxDispatcher(database, [second], silentLogger(), { pollIntervalMs: 10, batchSize: 3 });
    await Promise.all([d1.start(), d2.start()]);
    try {
      for (let i = 0; i < 40; i++) await publishEvent(database.db, { type: 'race', accountId, data: { i } });
      await until(() => first.of(accountId).length + second.of(accountId).length >= 40);
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      await Promise.all([d1.stop(), d2.stop()]);
    }
    const all = [...first.of(accountId), ...second.of(accountId)].map((e) => (e.data as { i: number }).i);
    expect(all.sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i));
  });
});
