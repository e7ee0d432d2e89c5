import crypto from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client.js';
import { notificationAttempts, notificationDeliveries, notifications } from '../../platform/db/schema/index.js';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.js';
import { createAccount } from '../../test/factories.js';
import type { TryResult } from './deliveryOutcome.js';
import { attemptsOf } from './deliveryQueries.js';
import { writeTryResults } from './deliveryResults.js';

describe.each(testDatabaseKinds)('webhook try results on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  it('keeps the latest try on the delivery, moves the one it replaces to an attempt row, and logs a late answer alone', async () => {
    const account = await createAccount(database.db);
    const notificationId = crypto.randomUUID();
    await database.db.insert(notifications).values({ id: notificationId, accountId: account.id, type: 'webhook', destination: 'https://hooks.example.test/x', eventTypes: [], secret: 'sealed' });
    const deliveryId = crypto.randomUUID();
    const createdAt = new Date(Date.now() - 60_000);
    await database.db.insert(notificationDeliveries).values({ id: deliveryId, accountId: account.id, notificationId, eventId: 'evt_1', eventType: 'contact-created', body: '{}', attempts: 1, createdAt });
    const result = (attempt: number, statusCode: number | null, secondsAgo: number): TryResult => ({
      channel: 'webhook',
      deliveryId,
      notificationId,
      accountId: account.id,
      attempt,
      createdAt,
      at: new Date(Date.now() - secondsAgo * 1000),
      durationMs: 12,
      statusCode,
      error: statusCode === null ? 'connect ECONNREFUSED' : null,
      responseHead: statusCode === null ? null : `answer ${String(statusCode)}`,
      event: null,
    });
    const row = async () => {
      const [found] = await database.db.select().from(notificationDeliveries).where(eq(notificationDeliveries.id, deliveryId));
      if (found === undefined) throw new Error('no delivery');
      return found;
    };
    const lines = () => database.db.select().from(notificationAttempts).where(eq(notificationAttempts.deliveryId, deliveryId));

    // The first try fails: it is the row's last try, no attempt row yet.
    await writeTryResults(database.db, [result(1, null, 30)]);
    expect(await row()).toMatchObject({ status: 'pending', lastAttempt: 1, lastStatusCode: null, lastError: 'connect ECONNREFUSED' });
    expect(await lines()).toEqual([]);

    // Claimed again (attempt 2), and then its hold ran out: claimed a third time.
    await database.db.update(notificationDeliveries).set({ attempts: 3 }).where(eq(notificationDeliveries.id, deliveryId));
    // The third try delivers; the late answer to the second, in the same batch, is logged and decides nothing.
    await writeTryResults(database.db, [result(3, 200, 10), result(2, 502, 5)]);
    expect(await row()).toMatchObject({ status: 'delivered', lastAttempt: 3, lastStatusCode: 200, lastResponseHead: 'answer 200' });
    expect((await lines()).map((l) => [l.attempt, l.statusCode]).sort()).toEqual([
      [1, null],
      [2, 502],
    ]);
    // The delivery log: every try, oldest first.
    expect((await attemptsOf(database.db, await row())).map((t) => [t.attempt, t.statusCode])).toEqual([
      [1, null],
      [3, 200],
      [2, 502],
    ]);

    // A late answer to a delivery already done changes nothing but the log.
    await writeTryResults(database.db, [result(3, 500, 1)]);
    expect(await row()).toMatchObject({ status: 'delivered', lastAttempt: 3, lastStatusCode: 200 });
    expect(await lines()).toHaveLength(3);
  });
  it("writes first tries at a cursor's events as delivery rows, and a try again at one of them as a line of its row", async () => {
    const account = await createAccount(database.db);
    const notificationId = crypto.randomUUID();
    await database.db.insert(notifications).values({ id: notificationId, accountId: account.id, type: 'webhook', destination: 'https://hooks.example.test/y', eventTypes: [], secret: 'sealed' });
    const createdAt = new Date(Date.now() - 60_000);
    const at = new Date(Date.now() - 1_000);
    const first = (position: number, statusCode: number, deliveryId: string = crypto.randomUUID()): TryResult => ({
      channel: 'webhook',
      deliveryId,
      notificationId,
      accountId: account.id,
      attempt: 1,
      createdAt,
      at,
      durationMs: 7,
      statusCode,
      error: null,
      responseHead: `answer\u0000${String(statusCode)}`,
      event: { position, eventId: `evt_${String(position)}`, eventType: 'message-status' },
    });
    const rows = async () =>
      (await database.db.select().from(notificationDeliveries).where(eq(notificationDeliveries.notificationId, notificationId)))
        .map((d) => ({ event: d.eventId, position: d.eventPosition, status: d.status, attempts: d.attempts, code: d.lastStatusCode, head: d.lastResponseHead, next: d.nextAttemptAt.getTime(), delivered: d.deliveredAt?.getTime() ?? null, created: d.createdAt.getTime() }))
        .sort((a, b) => a.event.localeCompare(b.event));

    await writeTryResults(database.db, [first(1, 200), first(2, 500), first(3, 410)]);
    expect(await rows()).toEqual([
      { event: 'evt_1', position: 1, status: 'delivered', attempts: 1, code: 200, head: 'answer200', next: at.getTime(), delivered: at.getTime(), created: createdAt.getTime() },
      // Retried on the schedule: 5 s after the try.
      { event: 'evt_2', position: 2, status: 'pending', attempts: 1, code: 500, head: 'answer500', next: at.getTime() + 5_000, delivered: null, created: createdAt.getTime() },
      { event: 'evt_3', position: 3, status: 'failed', attempts: 1, code: 410, head: 'answer410', next: at.getTime(), delivered: null, created: createdAt.getTime() },
    ]);

    // A sender that took over tries event 1 again, beside a new event 4: one new row, one line on the old row.
    const [before] = (await rows()).filter((r) => r.event === 'evt_1');
    await writeTryResults(database.db, [first(1, 502), first(4, 200)]);
    const after = await rows();
    expect(after.map((r) => r.event)).toEqual(['evt_1', 'evt_2', 'evt_3', 'evt_4']);
    expect(after[0]).toEqual(before);
    const [row1] = await database.db.select().from(notificationDeliveries).where(and(eq(notificationDeliveries.notificationId, notificationId), eq(notificationDeliveries.eventId, 'evt_1')));
    if (row1 === undefined) throw new Error('no delivery for evt_1');
    const lines = await database.db.select().from(notificationAttempts).where(eq(notificationAttempts.deliveryId, row1.id));
    expect(lines.map((l) => [l.attempt, l.statusCode, l.responseHead])).toEqual([[1, 502, 'answer502']]);
  });
});
