import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutboxEventPayload } from '@parley/shared';
import type { Database } from '../../platform/db/client.js';
import { notificationDeliveries } from '../../platform/db/schema/index.js';
import { allowedHostsFrom } from '../../platform/net/allowedHosts.js';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.js';
import { createAccount, createUser } from '../../test/factories.js';
import { addNotification } from './notificationManager.js';
import { NotificationFanout } from './notificationFanout.js';

const secrets = { key: crypto.randomBytes(32), keyFile: null };

describe.each(testDatabaseKinds)('the notifications fan-out on %s', (kind) => {
  let database: Database;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  const statusEvent = (accountId: string, id: string): OutboxEventPayload => ({
    id,
    type: 'messageStatus',
    accountId,
    userId: null,
    groupId: null,
    data: { message: { id: crypto.randomUUID(), status: 'delivered', outgoing: true } },
    createdAt: new Date().toISOString(),
  });

  it("writes each round's deliveries when the two lanes' rounds overlap", async () => {
    const admin = await createUser(database.db);
    const account = await createAccount(database.db, { [admin.id]: 'Administrator' });
    const deps = { db: database.db, secrets, allowedHosts: allowedHostsFrom(['127.0.0.1']) };
    const saved = await addNotification(deps, account.id, admin.id, { type: 'webhook', destination: 'http://127.0.0.1:9/hook', eventTypes: ['message-status'] });
    let woken = 0;
    const fanout = new NotificationFanout(() => (woken += 1));
    // The bulk lane's round has an event when the interactive lane's round (its own transaction) takes one,
    // commits, and only then does the bulk round commit. A savepoint stands in for the other transaction.
    await database.db.transaction(async (bulk) => {
      await fanout.deliver(statusEvent(account.id, '101.0'), bulk);
      await bulk.transaction(async (interactive) => {
        await fanout.deliver(statusEvent(account.id, '102'), interactive);
        await fanout.beforeCommit(interactive);
      });
      await fanout.deliver(statusEvent(account.id, '101.1'), bulk);
      await fanout.beforeCommit(bulk);
    });
    await fanout.flush();
    const rows = await database.db.select().from(notificationDeliveries).where(eq(notificationDeliveries.notificationId, saved.row.id));
    expect(rows.map((r) => r.eventId).sort()).toEqual(['evt_101_0', 'evt_101_1', 'evt_102']);
    expect(woken).toBe(1);
  });

  it('writes nothing of a round that failed, and its events come again in a later round', async () => {
    const admin = await createUser(database.db);
    const account = await createAccount(database.db, { [admin.id]: 'Administrator' });
    const deps = { db: database.db, secrets, allowedHosts: allowedHostsFrom(['127.0.0.1']) };
    const saved = await addNotification(deps, account.id, admin.id, { type: 'webhook', destination: 'http://127.0.0.1:9/other', eventTypes: ['message-status'] });
    const fanout = new NotificationFanout(() => undefined);
    await expect(
      database.db.transaction(async (tx) => {
        await fanout.deliver(statusEvent(account.id, '201'), tx);
        throw new Error('the round failed');
      }),
    ).rejects.toThrow('the round failed');
    await database.db.transaction(async (tx) => {
      await fanout.deliver(statusEvent(account.id, '202'), tx);
      await fanout.beforeCommit(tx);
    });
    const rows = await database.db.select().from(notificationDeliveries).where(eq(notificationDeliveries.notificationId, saved.row.id));
    expect(rows.map((r) => r.eventId)).toEqual(['evt_202']);
  });
});
