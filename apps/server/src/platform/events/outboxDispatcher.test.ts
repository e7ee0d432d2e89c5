import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutboxEventPayload } from '@parley/shared';
import type { Database } from '../db/client.js';
import { events, eventSubscriptions } from '../db/schema/index.js';
import { newAccountId, openTestDatabase, testDatabaseKinds } from '../../test/databases.js';
import { silentLogger } from '../../test/logger.js';
import { OutboxDispatcher, type EventSubscriber } from './outboxDispatcher.js';
import { eventPayloads } from './outboxPayload.js';
import { insertEventRows, publishEvent, publishEvents } from './outbox.js';

class Recorder implements EventSubscriber {
  readonly name = 'recorder';
  readonly types = ['messageReceived'];
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

  it("writes the events no subscriber delivers already dispatched: an incoming message goes out past a campaign's", async () => {
    const recorder = new Recorder();
    const accountId = newAccountId();
    await publishEvents(
      database.db,
      Array.from({ length: 300 }, (_, i) => ({ type: 'messageStatus', accountId, data: { i } })),
    );
    await publishEvent(database.db, { type: 'conversationStarted', accountId, data: { conversation: { id: 'none' } } });
    await publishEvent(database.db, { type: 'messageReceived', accountId, data: { text: 'a question' } });
    const written = await database.db
      .select({ type: events.type, lane: events.lane, dispatchedAt: events.dispatchedAt })
      .from(events)
      .where(eq(events.accountId, accountId));
    // Still in their lanes, for the websockets.
    expect(new Set(written.filter((e) => e.type === 'messageStatus').map((e) => e.lane))).toEqual(new Set([1]));
    expect(written.filter((e) => e.type !== 'messageReceived').every((e) => e.dispatchedAt !== null)).toBe(true);
    expect(written.find((e) => e.type === 'messageReceived')).toMatchObject({ lane: 0, dispatchedAt: null });

    const dispatcher = new OutboxDispatcher(database, [recorder], silentLogger(), { batchSize: 100 });
    await dispatcher.dispatchOnce();
    expect(recorder.of(accountId).map((e) => e.type)).toEqual(['messageReceived']);
    const [received] = await database.db.select().from(events).where(and(eq(events.accountId, accountId), eq(events.type, 'messageReceived')));
    expect(received?.dispatchedAt).not.toBeNull();
  });

  it("writes a type pending for an account that subscribed to it, hands its grouped events on one by one and lets the subscriber write in the round's transaction", async () => {
    const subscribed = newAccountId();
    const other = newAccountId();
    await database.db.insert(eventSubscriptions).values({ accountId: subscribed, type: 'messageStatus', subscriber: 'test' });
    const seen: OutboxEventPayload[] = [];
    let written = 0;
    const statuses: EventSubscriber = {
      name: 'statuses',
      types: ['messageStatus'],
      deliver: (event) => {
        seen.push(event);
        return Promise.resolve();
      },
      beforeCommit: async (tx) => {
        // Proof that it runs inside the round: what it writes commits with the rows marked dispatched.
        await tx.execute(sql`select 1`);
        written += 1;
      },
    };
    for (const accountId of [subscribed, other]) {
      await insertEventRows(
        database.db,
        sql`select 'messageStatus'::text as type, ${accountId}::uuid as account_id, null::uuid as user_id, null::uuid as group_id,
                   1::smallint as lane, jsonb_build_object('i', g - 1) as data, g as n
              from generate_series(1, 3) g`,
      );
    }
    const rows = await database.db.select().from(events).where(inArray(events.accountId, [subscribed, other]));
    // Three events of an account share one row, pending only for the subscriber's account.
    expect(rows.map((r) => [r.accountId, r.dispatchedAt === null])).toEqual(
      expect.arrayContaining([
        [subscribed, true],
        [other, false],
      ]),
    );
    expect(rows).toHaveLength(2);
    const dispatcher = new OutboxDispatcher(database, [statuses], silentLogger(), { batchSize: 100, expand: (_q, r) => Promise.resolve(r.flatMap(eventPayloads)) });
    while (await dispatcher.dispatchOnce());
    expect(seen.filter((e) => e.accountId === subscribed).map((e) => e.data)).toEqual([{ i: 0 }, { i: 1 }, { i: 2 }]);
    expect(seen.some((e) => e.accountId === other)).toBe(false);
    const row = rows.find((r) => r.accountId === subscribed);
    expect(seen.filter((e) => e.accountId === subscribed).map((e) => e.id)).toEqual([0, 1, 2].map((i) => `${String(row?.id)}.${String(i)}`));
    expect(written).toBeGreaterThan(0);
    const [after] = await database.db.select().from(events).where(eq(events.accountId, subscribed));
    expect(after?.dispatchedAt).not.toBeNull();
  });

  it('dispatches committed events once each, in order per account', async () => {
    const recorder = new Recorder();
    const a = newAccountId();
    const b = newAccountId();
    await database.db.transaction(async (tx) => {
      await publishEvents(tx, [
        { type: 'messageReceived', accountId: a, data: { i: 1 } },
        { type: 'messageReceived', accountId: b, data: { i: 1 } },
        { type: 'messageReceived', accountId: a, data: { i: 2 } },
      ]);
    });
    await publishEvent(database.db, { type: 'messageReceived', accountId: a, data: { i: 3 } });
    const dispatcher = new OutboxDispatcher(database, [recorder], silentLogger(), { pollIntervalMs: 50 });
    await dispatcher.start();
    try {
      await until(() => recorder.of(a).length === 3 && recorder.of(b).length === 1);
      expect(recorder.of(a).map((e) => e.data)).toEqual([{ i: 1 }, { i: 2 }, { i: 3 }]);
      // Woken by NOTIFY, an event published while it runs goes out too.
      await publishEvent(database.db, { type: 'messageReceived', accountId: b, data: { i: 4 } });
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
      { type: 'messageReceived', accountId: failing, data: { i: 1 } },
      { type: 'messageReceived', accountId: healthy, data: { i: 1 } },
      { type: 'messageReceived', accountId: failing, data: { i: 2 } },
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
      { type: 'messageReceived', accountId, data: { i: 1 } },
      { type: 'messageReceived', accountId, data: { i: 2 } },
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
      for (let i = 0; i < 40; i++) await publishEvent(database.db, { type: 'messageReceived', accountId, data: { i } });
      await until(() => first.of(accountId).length + second.of(accountId).length >= 40);
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      await Promise.all([d1.stop(), d2.stop()]);
    }
    const all = [...first.of(accountId), ...second.of(accountId)].map((e) => (e.data as { i: number }).i);
    expect(all.sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i));
  });
});
