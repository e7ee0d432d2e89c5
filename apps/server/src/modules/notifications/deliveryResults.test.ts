import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
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
});
