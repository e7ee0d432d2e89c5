import crypto from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationEventType } from '@parley/shared';
import type { Database } from '../../platform/db/client.js';
import {
  eventSubscriptions,
  events,
  notificationAttempts,
  notificationDeliveries,
  notificationEvents,
  notifications,
  type NotificationDeliveryRow,
} from '../../platform/db/schema/index.js';
import { OutboxDispatcher } from '../../platform/events/outboxDispatcher.js';
import { publishEvent, publishEvents } from '../../platform/events/outbox.js';
import { createLocalMailbox } from '../../platform/mail/localMailbox.js';
import { allowedHostsFrom } from '../../platform/net/allowedHosts.js';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.js';
import { createAccount, createUser } from '../../test/factories.js';
import { silentLogger } from '../../test/logger.js';
import { testConfig } from '../../test/config.js';
import { buildCarrierRegistry } from '../carriers/index.js';
import { mailsTo } from '../../test/mail.js';
import { expandEventRows } from '../messaging/index.js';
import { resendDelivery, sendTestEvent } from './deliveryCommands.js';
import { attemptsOf, listDeliveries } from './deliveryQueries.js';
import { addNotification, type NotificationDeps } from './notificationManager.js';
import { startNotificationDelivery, type NotificationDelivery } from './notificationDelivery.js';
import { TestReceiver } from './test/receiver.js';
import { WebhookSender } from './webhookSender.js';

const secrets = { key: crypto.randomBytes(32), keyFile: null };
const LOOPBACK = ['127.0.0.1'];

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not in time: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.each(testDatabaseKinds)('notification deliveries on %s', (kind) => {
  let database: Database;
  let receiver: TestReceiver;
  let delivery: NotificationDelivery;
  let dispatcher: OutboxDispatcher;
  let deps: NotificationDeps;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    receiver = new TestReceiver();
    await receiver.start();
    deps = { db: database.db, secrets, allowedHosts: allowedHostsFrom(LOOPBACK) };
    delivery = await startNotificationDelivery({
      database,
      config: { secrets, fetch: { allowedHosts: LOOPBACK }, publicUrl: 'http://parley.test', slack: null },
      mailer: createLocalMailbox(database.db),
      carriers: buildCarrierRegistry(testConfig(), database, silentLogger()),
      log: silentLogger(),
      pollIntervalMs: 50,
      digestQuietMs: 300,
    });
    dispatcher = new OutboxDispatcher(database, [delivery.subscriber], silentLogger(), { pollIntervalMs: 50, expand: expandEventRows });
    await dispatcher.start();
  });
  afterAll(async () => {
    await dispatcher.stop();
    await delivery.stop();
    await receiver.stop();
    await database.close();
  });
  afterEach(() => {
    receiver.received.length = 0;
  });

  /** Every try at a delivery, as the delivery log shows them. */
  const triesOf = (row: NotificationDeliveryRow | undefined) => {
    if (row === undefined) throw new Error('no delivery');
    return attemptsOf(database.db, row);
  };
  const attemptRowsOf = (row: NotificationDeliveryRow | undefined) =>
    database.db.select().from(notificationAttempts).where(eq(notificationAttempts.deliveryId, row?.id ?? crypto.randomUUID()));

  /** An account with an administrator and one webhook to `path` for the event types. */
  async function webhookAccount(path: string, eventTypes: NotificationEventType[]) {
    const admin = await createUser(database.db);
    const account = await createAccount(database.db, { [admin.id]: 'Administrator' });
    const saved = await addNotification(deps, account.id, admin.id, { type: 'webhook', destination: `${receiver.base}${path}`, eventTypes });
    receiver.expectSecret(path, saved.secret ?? '');
    return { account, admin, notification: saved.row, secret: saved.secret ?? '' };
  }

  const contactEvent = (accountId: string, type: 'contactCreated' | 'contactUpdated', firstName: string) =>
    publishEvent(database.db, { type, accountId, data: { contact: { id: crypto.randomUUID(), firstName } } });

  it('posts each wanted event, signed as Standard Webhooks does, and logs the try', async () => {
    const { account, notification } = await webhookAccount('/ok', ['contact-created']);
    const eventId = await contactEvent(account.id, 'contactCreated', 'Ada');
    // Pending only because the account wants it; an account without notifications writes it dispatched.
    const other = await createAccount(database.db);
    const otherId = await contactEvent(other.id, 'contactCreated', 'Bob');
    const [otherRow] = await database.db.select().from(events).where(eq(events.id, otherId));
    expect(otherRow?.dispatchedAt).not.toBeNull();
    await contactEvent(account.id, 'contactUpdated', 'Ada L.');

    await until(() => receiver.at('/ok').length === 1, 'the delivery');
    const [got] = receiver.at('/ok');
    expect(got).toMatchObject({ id: `evt_${String(eventId)}`, verified: true, body: { type: 'contact-created', accountId: account.id, data: { contact: { firstName: 'Ada' } } } });
    await until(async () => (await listDeliveries(database.db, account.id, notification.id, { offset: 0, limit: 10 })).rows[0]?.delivery.status === 'delivered', 'delivered');
    const { rows, totalCount } = await listDeliveries(database.db, account.id, notification.id, { offset: 0, limit: 10 });
    expect(totalCount).toBe(1);
    expect(rows[0]?.last).toMatchObject({ attempt: 1, statusCode: 200, responseHead: 'answer 200', error: null });
    expect((await triesOf(rows[0]?.delivery)).map((a) => [a.attempt, a.statusCode])).toEqual([[1, 200]]);
    // A delivery that succeeds at once keeps its try on its own row: no attempt row written.
    expect(await attemptRowsOf(rows[0]?.delivery)).toEqual([]);
    // Its body is its event's, written once for all the webhooks that want it, and shown in the log as sent.
    const [row] = await deliveriesOf(notification.id);
    expect(row?.body).toBeNull();
    expect(typeof row?.eventPosition).toBe('number');
    expect(JSON.parse(rows[0]?.delivery.body ?? '')).toEqual(got?.body);
    // The event type it does not want made no delivery.
    expect(receiver.at('/ok').map((r) => (r.body as { type: string }).type)).toEqual(['contact-created']);
  });

  it('retries a failing endpoint on schedule with the same webhook-id, and a success ends its failing run', async () => {
    const { account, notification } = await webhookAccount('/flaky', ['contact-created']);
    let calls = 0;
    receiver.answer('/flaky', () => ({ status: (calls += 1) === 1 ? 503 : 200 }));
    await contactEvent(account.id, 'contactCreated', 'Cy');
    await until(async () => {
      const [row] = await database.db.select().from(notificationDeliveries).where(eq(notificationDeliveries.notificationId, notification.id));
      return row?.status === 'pending' && row.attempts === 1 && row.nextAttemptAt.getTime() - Date.now() < 10_000 && row.nextAttemptAt.getTime() - Date.now() > 2_000;
    }, 'a retry due in about 5 s');
    const [failing] = await database.db.select().from(notifications).where(eq(notifications.id, notification.id));
    expect(failing?.failingSince).not.toBeNull();
    // Not waiting 5 s: the retry is made due now.
    await database.db.update(notificationDeliveries).set({ nextAttemptAt: sql`now()` }).where(eq(notificationDeliveries.notificationId, notification.id));
    delivery.webhooks.wake();
    await until(async () => {
      const [row] = await database.db.select().from(notificationDeliveries).where(eq(notificationDeliveries.notificationId, notification.id));
      return row?.status === 'delivered';
    }, 'delivered on the second try');
    const ids = receiver.at('/flaky').map((r) => r.id);
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(1);
    const [row] = await database.db.select().from(notificationDeliveries).where(eq(notificationDeliveries.notificationId, notification.id));
    expect((await triesOf(row)).map((a) => a.statusCode)).toEqual([503, 200]);
    // The first try moved to an attempt row when the second took its place on the delivery's row.
    expect((await attemptRowsOf(row)).map((a) => [a.attempt, a.statusCode])).toEqual([[1, 503]]);
    expect(row).toMatchObject({ lastAttempt: 2, lastStatusCode: 200, lastError: null });
    const [healthy] = await database.db.select().from(notifications).where(eq(notifications.id, notification.id));
    expect(healthy?.failingSince).toBeNull();
  });

  it('disables an endpoint that answers 410 Gone, stops writing its events pending and tells the administrators', async () => {
    const { account, admin, notification } = await webhookAccount('/gone', ['contact-created']);
    receiver.answer('/gone', () => ({ status: 410 }));
    await contactEvent(account.id, 'contactCreated', 'Di');
    await until(async () => {
      const [row] = await database.db.select().from(notifications).where(eq(notifications.id, notification.id));
      return row?.disabled === true;
    }, 'disabled');
    const [row] = await database.db.select().from(notifications).where(eq(notifications.id, notification.id));
    expect(row?.disabledReason).toBe('gone');
    expect(await database.db.select().from(eventSubscriptions).where(eq(eventSubscriptions.accountId, account.id))).toEqual([]);
    const later = await contactEvent(account.id, 'contactCreated', 'Ed');
    const [laterRow] = await database.db.select().from(events).where(eq(events.id, later));
    expect(laterRow?.dispatchedAt).not.toBeNull();
    await until(async () => (await mailsTo(database.db, admin.email)).length === 1, 'the administrators told');
    const [mail] = await mailsTo(database.db, admin.email);
    expect(mail?.subject).toMatch(/A webhook of .* was disabled/);
    expect(mail?.text).toContain('410 Gone');
  });

  it('disables an endpoint that has failed for 5 days', async () => {
    const { account, admin, notification } = await webhookAccount('/down', ['contact-created']);
    receiver.answer('/down', () => ({ status: 500 }));
    await database.db.update(notifications).set({ failingSince: sql`now() - interval '5 days 1 minute'` }).where(eq(notifications.id, notification.id));
    await contactEvent(account.id, 'contactCreated', 'Flo');
    await until(async () => {
      const [row] = await database.db.select().from(notifications).where(eq(notifications.id, notification.id));
      return row?.disabledReason === 'failing';
    }, 'disabled as failing');
    await until(async () => (await mailsTo(database.db, admin.email)).some((m) => m.text.includes('failed for 5 days')), 'the administrators told');
  });

  /** The events written for an account's webhooks, oldest first (a webhook's first try writes its delivery row). */
  const eventsOf = (accountId: string) =>
    database.db.select().from(notificationEvents).where(eq(notificationEvents.accountId, accountId)).orderBy(notificationEvents.position);
  const notificationOf = async (id: string) => {
    const [row] = await database.db.select().from(notifications).where(eq(notifications.id, id));
    if (row === undefined) throw new Error('no notification');
    return row;
  };

  it('reads a webhook from one sender at a time; when it dies another takes over after its hold, sends again with the same webhook-id, and ignores the dead try', async () => {
    const { account, notification } = await webhookAccount('/stuck', ['contact-created']);
    const seen = new Map<string, number>();
    // Each event's first request never gets an answer (its sender "dies" with it); later ones do.
    receiver.answer('/stuck', (r) => {
      seen.set(r.id, (seen.get(r.id) ?? 0) + 1);
      return seen.get(r.id) === 1 ? 'hang' : { status: 200 };
    });
    // The running sender must not take these: the endpoint is served by the two below.
    await delivery.webhooks.stop();
    const dying = new WebhookSender({ database, secrets, allowedHosts: LOOPBACK, log: silentLogger(), onDisabled: () => Promise.resolve(), holdMs: 400, timeoutMs: 60_000, pollIntervalMs: 50 });
    // Only the dying sender's hold is short: the taking one's outlasts any slow machine.
    const taking = new WebhookSender({ database, secrets, allowedHosts: LOOPBACK, log: silentLogger(), onDisabled: () => Promise.resolve(), pollIntervalMs: 50 });
    try {
      for (const name of ['G1', 'G2', 'G3']) await contactEvent(account.id, 'contactCreated', name);
      await until(async () => (await eventsOf(account.id)).length === 3, 'three events');
      await dying.round();
      await until(() => receiver.at('/stuck').length === 3, 'three requests in flight');
      // While its hold lasts, no other sender reads the webhook.
      await taking.round();
      expect(receiver.at('/stuck')).toHaveLength(3);
      await taking.start();
      await until(async () => {
        const rows = await deliveriesOf(notification.id);
        return rows.length === 3 && rows.every((r) => r.status === 'delivered');
      }, 'delivered by the other sender');
      // Every event twice at most, the second time with the same webhook-id.
      expect([...seen.values()]).toEqual([2, 2, 2]);
      expect((await notificationOf(notification.id)).sentPosition).toBe((await eventsOf(account.id)).at(-1)?.position);
      // The dead sender's answerless tries end (the receiver closes); what they write changes no delivery.
      await receiver.stop();
      await dying.stop();
      const rows = await deliveriesOf(notification.id);
      expect(rows.map((r) => r.status)).toEqual(['delivered', 'delivered', 'delivered']);
      // Each dead try is a line of its delivery's log, before the one that succeeded.
      for (const row of rows) expect((await triesOf(row)).map((t) => t.statusCode)).toEqual([null, 200]);
    } finally {
      await taking.stop();
      await receiver.start();
      await delivery.webhooks.start();
    }
  });

  /** A sender of the test's own while the running one is stopped, so only it takes the deliveries. */
  async function withOwnSender(options: { perEndpoint: number; timeoutMs?: number; pollIntervalMs?: number }, run: (sender: WebhookSender) => Promise<void>): Promise<void> {
    await delivery.webhooks.stop();
    const sender = new WebhookSender({ database, secrets, allowedHosts: LOOPBACK, log: silentLogger(), onDisabled: () => Promise.resolve(), pollIntervalMs: 50, ...options });
    try {
      await run(sender);
    } finally {
      await sender.stop();
      await delivery.webhooks.start();
    }
  }

  const deliveriesOf = (notificationId: string) =>
    database.db.select().from(notificationDeliveries).where(eq(notificationDeliveries.notificationId, notificationId));

  it('reads a few rounds of requests for an endpoint at once but has no more than its share in flight, and sends each event once', async () => {
    const { account, notification } = await webhookAccount('/paced', ['contact-created']);
    receiver.answer('/paced', () => ({ status: 200, delayMs: 30 }));
    await withOwnSender({ perEndpoint: 2 }, async (sender) => {
      for (let i = 0; i < 20; i += 1) await contactEvent(account.id, 'contactCreated', `P${String(i)}`);
      await until(async () => (await eventsOf(account.id)).length === 20, 'twenty events');
      await sender.round();
      // It holds the webhook now; two requests in flight, the rest of its read waiting for a place.
      expect((await notificationOf(notification.id)).senderId).not.toBeNull();
      await until(() => receiver.at('/paced').length >= 2, 'the first two requests');
      await sender.start();
      await until(async () => (await deliveriesOf(notification.id)).filter((d) => d.status === 'delivered').length === 20, 'all delivered');
    });
    const ids = receiver.at('/paced').map((r) => r.id);
    expect(ids).toHaveLength(20);
    expect(new Set(ids).size).toBe(20);
    expect(receiver.mostAtOnce('/paced')).toBe(2);
    const written = await eventsOf(account.id);
    // Oldest first, and its cursor past the last; the stopped sender let go of it.
    expect(ids).toEqual(written.map((e) => e.eventId));
    expect(await notificationOf(notification.id)).toMatchObject({ sentPosition: written.at(-1)?.position, senderId: null });
  });

  it('reads an event two webhooks want once for both: each gets its whole body, signed with its own secret', async () => {
    const first = await webhookAccount('/shared-a', ['contact-created']);
    const second = await addNotification(deps, first.account.id, first.admin.id, { type: 'webhook', destination: `${receiver.base}/shared-b`, eventTypes: ['contact-created'] });
    receiver.expectSecret('/shared-b', second.secret ?? '');
    const names = ['S1', 'S2', 'S3', 'S4', 'S5'];
    await withOwnSender({ perEndpoint: 4 }, async (sender) => {
      for (const name of names) await contactEvent(first.account.id, 'contactCreated', name);
      await until(async () => (await eventsOf(first.account.id)).length === names.length, 'the events');
      // Both webhooks read in the sender's first round, in one statement.
      await sender.start();
      await until(() => receiver.at('/shared-a').length === names.length && receiver.at('/shared-b').length === names.length, 'both endpoints served');
    });
    const written = await eventsOf(first.account.id);
    const got = (path: string) =>
      receiver
        .at(path)
        .map((r) => ({ id: r.id, verified: r.verified, firstName: (r.body as { data: { contact: { firstName: string } } }).data.contact.firstName }))
        .sort((a, b) => a.firstName.localeCompare(b.firstName));
    const expected = written.map((e, i) => ({ id: e.eventId, verified: true, firstName: names[i] }));
    expect(got('/shared-a')).toEqual(expected);
    expect(got('/shared-b')).toEqual(expected);
    // The same body to both; requests in flight together arrive in any order.
    const bodiesAt = (path: string) => receiver.at(path).map((r) => JSON.stringify(r.body)).sort();
    expect(bodiesAt('/shared-b')).toEqual(bodiesAt('/shared-a'));
  });

  it('sends a test event and a resend when asked, not at its next look for due deliveries', async () => {
    const { account, notification } = await webhookAccount('/asked', ['contact-created']);
    receiver.answer('/asked', () => ({ status: 200 }));
    let eventId = '';
    // Its look for due deliveries (retries) comes a minute apart: only the NOTIFY of the command can start them.
    await withOwnSender({ perEndpoint: 2, pollIntervalMs: 60_000 }, async (sender) => {
      await sender.start();
      const test = await sendTestEvent(database.db, account.id, notification.id);
      eventId = test.eventId;
      await until(async () => (await deliveriesOf(notification.id)).some((d) => d.id === test.id && d.status === 'delivered'), 'the test event delivered');
      await resendDelivery(database.db, account.id, notification.id, test.id);
      await until(() => receiver.at('/asked').length === 2, 'the resend');
    });
    expect(receiver.at('/asked').map((r) => r.id)).toEqual([eventId, eventId]);
  });

  it('keeps connections per endpoint: one that hangs holds none of another endpoint on the same origin', async () => {
    const hanging = await webhookAccount('/hanging', ['contact-created']);
    const healthy = await webhookAccount('/beside', ['contact-created']);
    receiver.answer('/hanging', () => 'hang');
    await withOwnSender({ perEndpoint: 2, timeoutMs: 30_000 }, async (sender) => {
      for (const name of ['H1', 'H2', 'H3']) await contactEvent(hanging.account.id, 'contactCreated', name);
      await until(async () => (await eventsOf(hanging.account.id)).length === 3, 'three events for the hanging endpoint');
      await sender.start();
      await until(() => receiver.at('/hanging').length === 2, 'the hanging endpoint holding its two places');
      for (const name of ['B1', 'B2', 'B3', 'B4']) await contactEvent(healthy.account.id, 'contactCreated', name);
      await until(async () => (await deliveriesOf(healthy.notification.id)).filter((d) => d.status === 'delivered').length === 4, 'the other endpoint served');
      expect(receiver.at('/hanging')).toHaveLength(2);
      // The receiver going away ends the hanging requests (failed tries, retried on schedule).
      await receiver.stop();
      await receiver.start();
    });
  });

  it('leaves the events it read but had not sent past the cursor when it stops, lets go of the webhook, and writes the result of the one in flight', async () => {
    const { account, notification } = await webhookAccount('/stalled', ['contact-created']);
    receiver.answer('/stalled', () => 'hang');
    await withOwnSender({ perEndpoint: 1, timeoutMs: 300 }, async (sender) => {
      for (const name of ['S1', 'S2', 'S3']) await contactEvent(account.id, 'contactCreated', name);
      await until(async () => (await eventsOf(account.id)).length === 3, 'three events');
      await sender.round();
      await until(() => receiver.at('/stalled').length === 1, 'one request in flight');
      await sender.stop();
      const rows = await deliveriesOf(notification.id);
      expect(rows).toHaveLength(1);
      // The one in flight timed out: tried again in about 5 s.
      expect(rows[0]).toMatchObject({ attempts: 1, status: 'pending', eventId: receiver.at('/stalled')[0]?.id });
      expect(rows[0]?.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 2_000);
      expect((await triesOf(rows[0])).map((a) => a.error)).toEqual([expect.stringContaining('no complete answer')]);
      // The two never sent stay past the cursor, for whichever sender takes the webhook next.
      const written = await eventsOf(account.id);
      expect(await notificationOf(notification.id)).toMatchObject({ sentPosition: written[0]?.position, senderId: null });
      expect(receiver.at('/stalled')).toHaveLength(1);
      receiver.answer('/stalled', () => ({ status: 200 }));
    });
    // The running sender, started again, takes them up.
    await until(async () => (await deliveriesOf(notification.id)).filter((d) => d.status === 'delivered').length === 2, 'the two let go delivered');
  });

  it("keeps an answer's first bytes in the log without the NUL characters PostgreSQL text cannot hold", async () => {
    const { account, notification } = await webhookAccount('/binary', ['contact-created']);
    receiver.answer('/binary', () => ({ status: 200, body: 'ok\u0000\u0000done' }));
    await contactEvent(account.id, 'contactCreated', 'Nul');
    await until(async () => (await deliveriesOf(notification.id))[0]?.status === 'delivered', 'delivered');
    const [row] = await deliveriesOf(notification.id);
    expect((await triesOf(row)).map((a) => a.responseHead)).toEqual(['okdone']);
  });

  it('mails an e-mail notification one digest for a burst of events', async () => {
    const admin = await createUser(database.db);
    const account = await createAccount(database.db, { [admin.id]: 'Administrator' });
    const to = `desk-${crypto.randomUUID().slice(0, 8)}@example.test`;
    const saved = await addNotification(deps, account.id, admin.id, { type: 'email', destination: to, eventTypes: ['contact-created', 'contact-updated'] });
    await publishEvents(
      database.db,
      Array.from({ length: 30 }, (_, i) => ({
        type: i % 3 === 0 ? 'contactUpdated' : 'contactCreated',
        accountId: account.id,
        data: { contact: { id: crypto.randomUUID(), firstName: `Guest ${String(i)}` } },
      })),
    );
    await until(async () => (await mailsTo(database.db, to)).length >= 1, 'the digest');
    await until(async () => {
      const rows = await database.db.select().from(notificationDeliveries).where(and(eq(notificationDeliveries.notificationId, saved.row.id), eq(notificationDeliveries.status, 'delivered')));
      return rows.length === 30;
    }, 'all delivered');
    const mails = await mailsTo(database.db, to);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe(`30 events in ${account.name}`);
    expect(mails[0]?.text).toContain('contact-created: 20, contact-updated: 10');
    expect(mails[0]?.text).toContain('... and 10 more events.');
  });
});
