import crypto from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutboxEventPayload } from '@parley/shared';
import type { Database } from '../../platform/db/client.js';
import { notificationDeliveries, notificationEvents } from '../../platform/db/schema/index.js';
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

  /** The events written for a webhook, oldest first. */
  const eventsFor = async (notificationId: string) =>
    (await database.db.select().from(notificationEvents).where(sql`${notificationEvents.notificationIds} @> array[${notificationId}]::uuid[]`).orderBy(notificationEvents.position)).map(
      (e) => e.eventId,
    );

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
    expect((await eventsFor(saved.row.id)).sort()).toEqual(['evt_101_0', 'evt_101_1', 'evt_102']);
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
    expect(await eventsFor(saved.row.id)).toEqual(['evt_202']);
  });

  it("writes an event once for all the webhooks that want it and a delivery for each e-mail notification", async () => {
    const admin = await createUser(database.db);
    const account = await createAccount(database.db, { [admin.id]: 'Administrator' });
    const deps = { db: database.db, secrets, allowedHosts: allowedHostsFrom(['127.0.0.1']) };
    const add = (type: 'webhook' | 'email', destination: string) => addNotification(deps, account.id, admin.id, { type, destination, eventTypes: ['message-status'] });
    const first = await add('webhook', 'http://127.0.0.1:9/first');
    const second = await add('webhook', 'http://127.0.0.1:9/second');
    const mail = await add('email', 'ops@example.com');
    const fanout = new NotificationFanout(() => undefined);
    await database.db.transaction(async (tx) => {
      await fanout.deliver(statusEvent(account.id, '301'), tx);
      await fanout.beforeCommit(tx);
    });
    const written = await database.db.select().from(notificationEvents).where(eq(notificationEvents.accountId, account.id));
    expect(written).toHaveLength(1);
    expect([...(written[0]?.notificationIds ?? [])].sort()).toEqual([first.row.id, second.row.id].sort());
    // A webhook's delivery row is written by its first try; an e-mail notification's now, for its digest.
    const rows = await database.db.select().from(notificationDeliveries).where(eq(notificationDeliveries.accountId, account.id));
    expect(rows.map((r) => [r.notificationId, r.eventId])).toEqual([[mail.row.id, 'evt_301']]);
    // A webhook added later reads on from the account's last event: those before it were for the others.
    const later = await add('webhook', 'http://127.0.0.1:9/later');
    expect(later.row.sentPosition).toBe(written[0]?.position);
  });

  it.skipIf(kind !== 'postgres')("positions an account's events in commit order: a round waits for the other lane's to commit", async () => {
    const admin = await createUser(database.db);
    const account = await createAccount(database.db, { [admin.id]: 'Administrator' });
    const deps = { db: database.db, secrets, allowedHosts: allowedHostsFrom(['127.0.0.1']) };
    const saved = await addNotification(deps, account.id, admin.id, { type: 'webhook', destination: 'http://127.0.0.1:9/ordered', eventTypes: ['message-status'] });
    const fanout = new NotificationFanout(() => undefined);
    let releaseFirst = (): void => undefined;
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstWritten = (): void => undefined;
    const firstInserted = new Promise<void>((resolve) => (firstWritten = resolve));
    const first = database.db.transaction(async (tx) => {
      await fanout.deliver(statusEvent(account.id, '401'), tx);
      await fanout.beforeCommit(tx);
      firstWritten();
      await firstHeld;
    });
    await firstInserted;
    let secondDone = false;
    const second = database.db
      .transaction(async (tx) => {
        await fanout.deliver(statusEvent(account.id, '402'), tx);
        await fanout.beforeCommit(tx);
      })
      .then(() => (secondDone = true));
    // Without the account's lock the second round would write and commit now, its position visible before
    // the first's: a cursor could pass the first event before it is committed.
    await new Promise((r) => setTimeout(r, 300));
    expect(secondDone).toBe(false);
    releaseFirst();
    await first;
    await second;
    expect(await eventsFor(saved.row.id)).toEqual(['evt_401', 'evt_402']);
  });
});
