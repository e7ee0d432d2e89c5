import crypto from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client.js';
import { notificationAttempts, notificationDeliveries, notificationEvents, notifications } from '../../platform/db/schema/index.js';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.js';
import { createAccount } from '../../test/factories.js';
import { silentLogger } from '../../test/logger.js';
import { pruneDeliveriesJob } from './pruneDeliveriesJob.js';

describe.each(testDatabaseKinds)('maintenance.prune-notification-deliveries on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  it('fails deliveries waiting past the give-up time, deletes done ones and events past retention with their tries, keeps the rest', async () => {
    const account = await createAccount(database.db);
    const notificationId = crypto.randomUUID();
    await database.db.insert(notifications).values({ id: notificationId, accountId: account.id, type: 'email', destination: 'log@example.test', eventTypes: [], disabled: true });
    const delivery = (name: string, status: 'pending' | 'delivered' | 'failed', age: string) => ({
      id: crypto.randomUUID(),
      accountId: account.id,
      notificationId,
      eventId: `evt_${name}`,
      eventType: 'contact-created',
      body: '{}',
      status,
      createdAt: sql`now() - ${age}::interval`,
    });
    const rows = [
      delivery('stale', 'pending', '4 days'),
      delivery('waiting', 'pending', '1 day'),
      delivery('old-done', 'delivered', '31 days'),
      delivery('old-failed', 'failed', '40 days'),
      delivery('recent-done', 'delivered', '2 days'),
    ];
    await database.db.insert(notificationDeliveries).values(rows);
    await database.db.insert(notificationAttempts).values({ id: crypto.randomUUID(), deliveryId: rows[2]?.id ?? '', attempt: 1, at: new Date(), durationMs: 3 });

    const event = (name: string, age: string) => ({
      accountId: account.id,
      eventId: `evt_${name}`,
      eventType: 'contact-created',
      body: '{}',
      notificationIds: [notificationId],
      createdAt: sql`now() - ${age}::interval`,
    });
    await database.db.insert(notificationEvents).values([event('old-event', '31 days'), event('recent-event', '2 days')]);

    await pruneDeliveriesJob(database).handler({}, { jobId: 'j', retryCount: 0, log: silentLogger(), signal: new AbortController().signal });

    const left = await database.db.select().from(notificationDeliveries).where(eq(notificationDeliveries.notificationId, notificationId));
    expect(Object.fromEntries(left.map((r) => [r.eventId, r.status]))).toEqual({ evt_stale: 'failed', evt_waiting: 'pending', 'evt_recent-done': 'delivered' });
    expect(await database.db.select().from(notificationAttempts).where(eq(notificationAttempts.deliveryId, rows[2]?.id ?? ''))).toEqual([]);
    const events = await database.db.select().from(notificationEvents).where(eq(notificationEvents.accountId, account.id));
    expect(events.map((e) => e.eventId)).toEqual(['evt_recent-event']);
  });
});
