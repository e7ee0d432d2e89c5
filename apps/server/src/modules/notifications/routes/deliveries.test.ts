import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Notification, NotificationDelivery, Pagination } from '@parley/shared';
import { notificationAttempts, notificationDeliveries, notifications } from '../../../platform/db/schema/index.js';
import { SecretCipher } from '../../../platform/secrets/cipher.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { useRouteHarness } from '../../../test/routeHarness.js';
import { NOTIFICATION_DISABLED_MESSAGE, SECRET_ONLY_FOR_WEBHOOKS_MESSAGE } from '../deliveryCommands.js';
import { openWebhookSecret } from '../webhookSecret.js';

const key = crypto.randomBytes(32);

describe.each(testDatabaseKinds)('notification deliveries through the API on %s', (kind) => {
  const { h, fixtures, tokens } = useRouteHarness(kind, { env: { SECRETS_KEY: key.toString('base64') } });
  const base = (acc: string) => `/v1/accounts/${acc}/notifications`;

  async function webhook(): Promise<Notification> {
    const made = await h.call('POST', base(fixtures.accountId), tokens.Administrator, {
      type: 'webhook',
      destination: `https://hooks.example.com/${crypto.randomUUID()}`,
      eventTypes: ['message-received'],
    });
    expect(made.statusCode, made.body).toBe(201);
    return made.json<{ data: Notification }>().data;
  }

  it('sends a test event, lists it in the log and shows it with its tries; Read Only reads but may not send', async () => {
    const hook = await webhook();
    const sent = await h.call('POST', `${base(fixtures.accountId)}/${hook.id}/test`, tokens.CampaignManager);
    expect(sent.statusCode, sent.body).toBe(202);
    const delivery = sent.json<{ data: NotificationDelivery }>().data;
    expect(delivery).toMatchObject({ eventType: 'webhook-test', status: 'pending', attempts: 0 });
    expect(delivery.eventId).toMatch(/^evt_test_[0-9a-f]{32}$/);
    expect(JSON.parse(delivery.body)).toMatchObject({ type: 'webhook-test', accountId: fixtures.accountId, data: { test: true } });

    // A try, as the sender writes it.
    await h.database.db.update(notificationDeliveries).set({ attempts: 1, status: 'failed' }).where(eq(notificationDeliveries.id, delivery.id));
    await h.database.db
      .insert(notificationAttempts)
      .values({ id: crypto.randomUUID(), deliveryId: delivery.id, attempt: 1, at: new Date(), statusCode: 500, durationMs: 12, responseHead: 'oops' });

    const log = await h.call('GET', `${base(fixtures.accountId)}/${hook.id}/deliveries`, tokens.ReadOnly);
    expect(log.statusCode, log.body).toBe(200);
    const listed = log.json<{ data: NotificationDelivery[]; pagination: Pagination }>();
    expect(listed.pagination.totalCount).toBe(1);
    expect(listed.data[0]).toMatchObject({ id: delivery.id, status: 'failed', lastAttempt: { attempt: 1, statusCode: 500, durationMs: 12, responseHead: 'oops' } });
    const onlyPending = await h.call('GET', `${base(fixtures.accountId)}/${hook.id}/deliveries?status=pending`, tokens.ReadOnly);
    expect(onlyPending.json<{ data: unknown[] }>().data).toEqual([]);
    const one = await h.call('GET', `${base(fixtures.accountId)}/${hook.id}/deliveries/${delivery.id}`, tokens.ReadOnly);
    expect(one.json<{ data: { attemptLog: unknown[] } }>().data.attemptLog).toEqual([expect.objectContaining({ attempt: 1, statusCode: 500 })]);

    expect((await h.call('POST', `${base(fixtures.accountId)}/${hook.id}/test`, tokens.ReadOnly)).statusCode).toBe(403);
    expect((await h.call('POST', `${base(fixtures.accountId)}/${hook.id}/deliveries/${delivery.id}/resend`, tokens.ReadOnly)).statusCode).toBe(403);

    const resent = await h.call('POST', `${base(fixtures.accountId)}/${hook.id}/deliveries/${delivery.id}/resend`, tokens.Sender);
    expect(resent.statusCode, resent.body).toBe(202);
    const again = resent.json<{ data: NotificationDelivery }>().data;
    expect(again).toMatchObject({ id: delivery.id, eventId: delivery.eventId, status: 'pending' });
    expect(Math.abs(new Date(again.nextAttemptAt ?? 0).getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('refuses a test event or a resend to a disabled notification, and an unknown delivery', async () => {
    const hook = await webhook();
    const url = `${base(fixtures.accountId)}/${hook.id}`;
    const delivery = (await h.call('POST', `${url}/test`, tokens.Administrator)).json<{ data: NotificationDelivery }>().data;
    await h.call('PUT', url, tokens.Administrator, { type: 'webhook', destination: hook.destination, eventTypes: hook.eventTypes, disabled: true });
    const refused = await h.call('POST', `${url}/test`, tokens.Administrator);
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ error: { message: string } }>().error.message).toBe(NOTIFICATION_DISABLED_MESSAGE);
    expect((await h.call('POST', `${url}/deliveries/${delivery.id}/resend`, tokens.Administrator)).statusCode).toBe(409);
    const count = await h.database.db.select().from(notificationDeliveries).where(eq(notificationDeliveries.notificationId, hook.id));
    expect(count).toHaveLength(1);
    await h.call('PUT', url, tokens.Administrator, { type: 'webhook', destination: hook.destination, eventTypes: hook.eventTypes, disabled: false });
    expect((await h.call('POST', `${url}/deliveries/${crypto.randomUUID()}/resend`, tokens.Administrator)).statusCode).toBe(404);
    expect((await h.call('GET', `${url}/deliveries/not-an-id`, tokens.Administrator)).statusCode).toBe(404);
  });

  it("rotates a webhook's secret, keeping the previous one for 24 hours; an e-mail notification has none", async () => {
    const hook = await webhook();
    const [before] = await h.database.db.select().from(notifications).where(eq(notifications.id, hook.id));
    const rotated = await h.call('POST', `${base(fixtures.accountId)}/${hook.id}/secret`, tokens.Administrator);
    expect(rotated.statusCode, rotated.body).toBe(200);
    const { secret, previousValidUntil } = rotated.json<{ data: { secret: string; previousValidUntil: string } }>().data;
    expect(secret).toMatch(/^whsec_/);
    expect(new Date(previousValidUntil).getTime() - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
    const [after] = await h.database.db.select().from(notifications).where(eq(notifications.id, hook.id));
    const cipher = new SecretCipher(key);
    expect(openWebhookSecret(cipher, hook.id, after?.secret ?? '')).toBe(secret);
    expect(after?.previousSecret).toBe(before?.secret);
    expect((await h.call('POST', `${base(fixtures.accountId)}/${hook.id}/secret`, tokens.ReadOnly)).statusCode).toBe(403);

    const email = await h.call('POST', base(fixtures.accountId), tokens.Administrator, { type: 'email', destination: `x-${crypto.randomUUID().slice(0, 6)}@example.com`, eventTypes: [] });
    const refused = await h.call('POST', `${base(fixtures.accountId)}/${email.json<{ data: Notification }>().data.id}/secret`, tokens.Administrator);
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ error: { message: string } }>().error.message).toBe(SECRET_ONLY_FOR_WEBHOOKS_MESSAGE);
  });
});
