import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  NOTIFICATION_DESTINATION_TAKEN_MESSAGE,
  notificationEventTypes,
  validationMessages,
  type Notification,
  type Pagination,
  type WebhookSubscription,
} from '@parley/shared';
import { notifications } from '../../../platform/db/schema/index.js';
import { SecretCipher } from '../../../platform/secrets/cipher.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { useRouteHarness } from '../../../test/routeHarness.js';
import { openWebhookSecret, WEBHOOKS_NEED_SECRETS_KEY_MESSAGE } from '../webhookSecret.js';

const key = crypto.randomBytes(32);

describe.each(testDatabaseKinds)('notifications on %s', (kind) => {
  const { h, fixtures, tokens, ownAccount } = useRouteHarness(kind, { env: { SECRETS_KEY: key.toString('base64') } });
  const url = (acc: string, rest = '') => `/v1/accounts/${acc}/notifications${rest}`;

  it('adds an e-mail and a webhook notification, shows the secret once, lists, changes and removes them', async () => {
    const { account, token } = await ownAccount();
    const email = await h.call('POST', url(account.id), token, {
      type: 'email',
      destination: ' Front.Desk@Example.com ',
      eventTypes: ['message-received', 'contact-opt-out', 'message-received'],
    });
    expect(email.statusCode, email.body).toBe(201);
    const mail = email.json<{ data: Notification }>().data;
    expect(mail).toEqual({
      id: expect.any(String) as string,
      type: 'email',
      destination: 'front.desk@example.com',
      eventTypes: ['message-received', 'contact-opt-out'],
      filters: {},
      disabled: false,
      created: { at: expect.any(String) as string },
      updated: { at: expect.any(String) as string },
    });

    const hook = await h.call('POST', url(account.id), token, {
      type: 'webhook',
      destination: 'https://hooks.example.com/parley',
      eventTypes: ['message-status'],
      filters: { statuses: ['failed'], direction: 'outgoing' },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const webhook = hook.json<{ data: Notification }>().data;
    expect(webhook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    // Kept encrypted, bound to its row; what the answer showed is what it opens to.
    const [stored] = await h.database.db.select().from(notifications).where(eq(notifications.id, webhook.id));
    expect(stored?.secret).not.toContain(webhook.secret);
    expect(openWebhookSecret(new SecretCipher(key), webhook.id, stored?.secret ?? '')).toBe(webhook.secret);

    const list = (await h.call('GET', url(account.id), token)).json<{ data: Notification[]; pagination: Pagination }>();
    expect(list.data.map((n) => n.destination)).toEqual(['front.desk@example.com', 'https://hooks.example.com/parley']);
    expect(list.data.every((n) => n.secret === undefined)).toBe(true);
    expect(list.pagination).toEqual({ totalCount: 2, offset: 0, limit: 10 });

    const changed = await h.call('PUT', url(account.id, `/${webhook.id}`), token, {
      type: 'webhook',
      destination: 'https://hooks.example.com/v2',
      eventTypes: ['conversation-closed', 'message-sent'],
      disabled: true,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json<{ data: Notification }>().data).toMatchObject({
      destination: 'https://hooks.example.com/v2',
      eventTypes: ['message-sent', 'conversation-closed'],
      filters: {},
      disabled: true,
    });
    expect(changed.json<{ data: Notification }>().data.secret).toBeUndefined();

    expect((await h.call('DELETE', url(account.id, `/${mail.id}`), token)).statusCode).toBe(204);
    expect((await h.call('GET', url(account.id, `/${mail.id}`), token)).statusCode).toBe(404);
    expect((await h.call('DELETE', url(account.id, `/${mail.id}`), token)).statusCode).toBe(404);
  });

  it('refuses bad input with the clear message and changes nothing', async () => {
    const { account, token } = await ownAccount();
    const refused = async (body: object, status = 400) => {
      const res = await h.call('POST', url(account.id), token, body);
      expect(res.statusCode, res.body).toBe(status);
      return res.json<{ error: { message: string } }>().error.message;
    };
    expect(await refused({ type: 'email', destination: 'not-an-address', eventTypes: [] })).toContain(validationMessages.email);
    expect(await refused({ type: 'email', destination: '', eventTypes: [] })).toContain(validationMessages.required);
    expect(await refused({ type: 'webhook', destination: 'ftp://example.com/x', eventTypes: [] })).toContain(validationMessages.url);
    expect(await refused({ type: 'webhook', destination: 'https://example.com/', eventTypes: ['message-deleted'] })).toContain('Event types are');
    expect(await refused({ type: 'sms', destination: '+15551234567', eventTypes: [] })).toBeTruthy();
    // Private addresses are not reached unless FETCH_ALLOWED_HOSTS names them.
    expect(await refused({ type: 'webhook', destination: 'http://127.0.0.1:8080/hook', eventTypes: [] })).toContain('not a public address');
    expect(await refused({ type: 'webhook', destination: 'http://localhost/hook', eventTypes: [] })).toContain('not a public address');
    expect(await refused({ type: 'webhook', destination: 'http://[::1]/hook', eventTypes: [] })).toContain('not a public address');
    expect(await refused({ type: 'webhook', destination: 'http://169.254.169.254/latest', eventTypes: [] })).toContain('not a public address');
    expect(
      await refused({ type: 'email', destination: 'a@example.com', eventTypes: [], filters: { groups: [crypto.randomUUID()] } }),
    ).toContain('Every group must be a group of this account');
    expect(await refused({ type: 'email', destination: 'a@example.com', eventTypes: [], filters: { colour: 'red' } })).toBeTruthy();
    expect((await h.call('GET', url(account.id), token)).json<{ data: unknown[] }>().data).toEqual([]);

    const first = await h.call('POST', url(account.id), token, { type: 'email', destination: 'a@example.com', eventTypes: [] });
    expect(first.statusCode).toBe(201);
    expect(await refused({ type: 'email', destination: 'A@example.com', eventTypes: ['message-sent'] }, 409)).toBe(NOTIFICATION_DESTINATION_TAKEN_MESSAGE);
    const id = first.json<{ data: Notification }>().data.id;
    const retype = await h.call('PUT', url(account.id, `/${id}`), token, { type: 'webhook', destination: 'https://example.com/', eventTypes: [] });
    expect(retype.statusCode).toBe(400);
    expect(retype.json<{ error: { message: string } }>().error.message).toContain('keeps its type');
  });

  it('narrows by the account’s own groups, and every role reads while Read Only may not write', async () => {
    const acc = fixtures.accountId;
    const group = (await h.call('POST', `/v1/accounts/${acc}/groups`, tokens.Administrator, { name: 'Front desk' })).json<{ data: { id: string } }>().data;
    const made = await h.call('POST', url(acc), tokens.Sender, {
      type: 'email',
      destination: 'sender@example.com',
      eventTypes: ['message-received'],
      filters: { groups: [group.id] },
    });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json<{ data: Notification }>().data.id;
    for (const role of ['Administrator', 'CampaignManager', 'Sender', 'ReadOnly'] as const) {
      expect((await h.call('GET', url(acc, `/${id}`), tokens[role])).statusCode).toBe(200);
    }
    const managed = await h.call('PUT', url(acc, `/${id}`), tokens.CampaignManager, { type: 'email', destination: 'manager@example.com', eventTypes: [] });
    expect(managed.statusCode, managed.body).toBe(200);
    expect((await h.call('POST', url(acc), tokens.ReadOnly, { type: 'email', destination: 'ro@example.com', eventTypes: [] })).statusCode).toBe(403);
    expect((await h.call('PUT', url(acc, `/${id}`), tokens.ReadOnly, { type: 'email', destination: 'ro@example.com', eventTypes: [] })).statusCode).toBe(403);
    expect((await h.call('DELETE', url(acc, `/${id}`), tokens.ReadOnly)).statusCode).toBe(403);

    // Another account's notification is not found, whoever asks.
    const other = await ownAccount();
    expect((await h.call('GET', url(other.account.id, `/${id}`), other.token)).statusCode).toBe(404);
    expect((await h.call('DELETE', url(other.account.id, `/${id}`), other.token)).statusCode).toBe(404);
    // Not a member: the account is not found to them.
    expect((await h.call('GET', url(acc, `/${id}`), other.token)).statusCode).toBe(404);
  });

  describe('the hosted product’s webhook subscriptions', () => {
    const hooks = (acc: string, rest = '') => `/v1/accounts/${acc}/webhooks${rest}`;

    it('subscribes a URL, changes its event types, lists and unsubscribes it by its encoded URL', async () => {
      const { account, token } = await ownAccount();
      const target = 'https://requestbin.example.com/in?team=a&b=1';
      const made = await h.call('POST', hooks(account.id), token, { url: target, eventTypes: ['message-received'] });
      expect(made.statusCode, made.body).toBe(200);
      const first = made.json<{ success: boolean; data: WebhookSubscription }>();
      expect(first).toEqual({ success: true, data: { url: target, eventTypes: ['message-received'], secret: expect.stringMatching(/^whsec_/) as string } });

      const again = await h.call('POST', hooks(account.id), token, { url: target, eventTypes: ['message-status', 'message-sent'] });
      expect(again.json()).toEqual({ success: true, data: { url: target, eventTypes: ['message-sent', 'message-status'] } });
      // Its clients may send callbackUrl; without event types a subscription gets every event.
      const everything = await h.call('POST', hooks(account.id), token, { callbackUrl: 'https://other.example.com/cb' });
      expect(everything.json<{ data: WebhookSubscription }>().data.eventTypes).toEqual([...notificationEventTypes]);

      const listed = (await h.call('GET', hooks(account.id), token)).json<{ success: boolean; data: WebhookSubscription[]; pagination: Pagination }>();
      expect(listed.success).toBe(true);
      expect(listed.data.map((w) => w.url)).toEqual([target, 'https://other.example.com/cb']);
      expect(listed.pagination.totalCount).toBe(2);
      // The subscriptions are the account's webhook notifications.
      const asNotifications = (await h.call('GET', `/v1/accounts/${account.id}/notifications`, token)).json<{ data: Notification[] }>();
      expect(asNotifications.data.map((n) => [n.type, n.destination])).toEqual([
        ['webhook', target],
        ['webhook', 'https://other.example.com/cb'],
      ]);

      const gone = await h.call('DELETE', hooks(account.id, `/${encodeURIComponent(target)}`), token);
      expect(gone.statusCode, gone.body).toBe(204);
      expect((await h.call('DELETE', hooks(account.id, `/${encodeURIComponent(target)}`), token)).statusCode).toBe(404);
      expect((await h.call('GET', hooks(account.id), token)).json<{ data: WebhookSubscription[] }>().data.map((w) => w.url)).toEqual([
        'https://other.example.com/cb',
      ]);
    });

    it('refuses a subscription without a URL, with a bad one or an unknown event type', async () => {
      const { account, token } = await ownAccount();
      for (const body of [{}, { url: 'not a url' }, { url: 'https://example.com/', eventTypes: ['message-deleted'] }, { url: 'http://10.0.0.5/' }]) {
        expect((await h.call('POST', hooks(account.id), token, body)).statusCode, JSON.stringify(body)).toBe(400);
      }
      expect((await h.call('GET', hooks(account.id), token)).json<{ data: unknown[] }>().data).toEqual([]);
      expect((await h.call('POST', hooks(fixtures.accountId), tokens.ReadOnly, { url: 'https://example.com/' })).statusCode).toBe(403);
      expect((await h.call('GET', hooks(fixtures.accountId), tokens.ReadOnly)).statusCode).toBe(200);
    });
  });
});

describe.each(testDatabaseKinds)('webhooks without a secrets key on %s', (kind) => {
  // A PostgreSQL deployment without SECRETS_KEY (the configured URL only decides that; the test's own database serves).
  const { h, ownAccount } = useRouteHarness(kind, { env: { DATABASE_URL: 'postgres://parley@db.example.test/parley' } });

  it('refuses a webhook, naming SECRETS_KEY, and keeps nothing; an e-mail notification needs no key', async () => {
    const { account, token } = await ownAccount();
    const url = `/v1/accounts/${account.id}/notifications`;
    const refused = await h.call('POST', url, token, { type: 'webhook', destination: 'https://hooks.example.com/', eventTypes: [] });
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ error: { message: string } }>().error.message).toBe(WEBHOOKS_NEED_SECRETS_KEY_MESSAGE);
    const subscribed = await h.call('POST', `/v1/accounts/${account.id}/webhooks`, token, { url: 'https://hooks.example.com/' });
    expect(subscribed.statusCode).toBe(409);
    expect((await h.database.db.select().from(notifications).where(eq(notifications.accountId, account.id)))).toEqual([]);
    expect((await h.call('POST', url, token, { type: 'email', destination: 'a@example.com', eventTypes: [] })).statusCode).toBe(201);
  });
});
