import crypto, { randomUUID } from 'node:crypto';
import { DEPLOYMENT_SIMULATOR } from '../carriers/registry.js';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatPhoneNumber, type OutboxEventPayload, type Role, type WebPushPayload } from '@parley/shared';
import type { SecretsConfig } from '../../platform/config.js';
import type { Database } from '../../platform/db/client.js';
import { accountMembers, contactGroups, conversations, groupPhoneNumbers, groupUsers, webPushSubscriptions } from '../../platform/db/schema/index.js';
import { OutboxDispatcher } from '../../platform/events/outboxDispatcher.js';
import { receiveInbound } from '../messaging/inbound.js';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.js';
import { createUser } from '../../test/factories.js';
import { captureLogger, silentLogger } from '../../test/logger.js';
import { addContact, sendingAccount, uniqueSendingTestNumber } from '../../test/sendingFixtures.js';
import { MESSAGE_WORKERS, WebPushDelivery } from './delivery.js';
import { vapidKeysFor, type VapidKeys } from './keys.js';
import { browserSubscription, startLocalPushService, verifyVapid, type BrowserSubscription, type LocalPushService } from './test/localPushService.js';
import { MAX_CONSECUTIVE_FAILURES, registerSubscription } from './subscriptions.js';

const SUBJECT = 'mailto:ops@parley.test';

describe.each(testDatabaseKinds)('web push delivery on %s', (kind) => {
  let database: Database;
  let push: LocalPushService;
  let vapid: VapidKeys;
  const secrets: SecretsConfig = { key: crypto.randomBytes(32), keyFile: null };

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    push = await startLocalPushService();
    // What the web app's first GET /webpush does.
    const keys = await vapidKeysFor(database, secrets, silentLogger(), { create: true });
    if (!keys) throw new Error('no keys');
    vapid = keys;
  });
  afterAll(async () => {
    await push.close();
    await database.close();
  });

  const delivery = (options: { timeoutMs?: number; allowedHosts?: readonly string[] } = {}) => {
    const captured = captureLogger('info');
    return { delivery: new WebPushDelivery({ database, secrets, subject: SUBJECT, log: captured.log, allowedHosts: ['127.0.0.1'], ...options }), lines: captured.lines };
  };

  async function member(accountId: string, role: Role): Promise<string> {
    const user = await createUser(database.db);
    await database.db.insert(accountMembers).values({ accountId, userId: user.id, role });
    return user.id;
  }

  /** A browser of the user, registered for the account, pushing to its own path of the local service. */
  async function subscribe(accountId: string, userId: string): Promise<BrowserSubscription> {
    const browser = browserSubscription(`${push.origin}/push/${randomUUID()}`);
    await registerSubscription(database.db, { accountId, userId, endpoint: browser.endpoint, ...browser.keys, userAgent: 'test' });
    return browser;
  }

  async function conversation(accountId: string, groupId: string | null = null, contact: { firstName?: string; lastName?: string } = {}) {
    const row = await addContact(database.db, accountId, { firstName: 'Ada', lastName: 'Lovelace', ...contact });
    const id = randomUUID();
    await database.db.insert(conversations).values({ id, accountId, contactId: row.id, groupId });
    return id;
  }

  async function group(accountId: string, userIds: string[]): Promise<string> {
    const id = randomUUID();
    await database.db.insert(contactGroups).values({ id, accountId, name: `Group ${id}` });
    if (userIds.length > 0) await database.db.insert(groupUsers).values(userIds.map((userId) => ({ groupId: id, userId })));
    return id;
  }

  const received = (accountId: string, conversationId: string, text: string, media: unknown[] = []): OutboxEventPayload => ({
    id: String(Date.now()),
    type: 'messageReceived',
    accountId,
    userId: null,
    // The subscriber reads the conversation's group itself, as it is when the push goes.
    groupId: null,
    data: { message: { id: randomUUID(), conversation: { id: conversationId }, message: text, media } },
    createdAt: new Date().toISOString(),
  });

  /** The pushes that arrived since `from`, each checked (VAPID) and decrypted by its browser. */
  async function opened(from: number, browsers: BrowserSubscription[]): Promise<Map<BrowserSubscription, WebPushPayload>> {
    const out = new Map<BrowserSubscription, WebPushPayload>();
    for (const request of push.received.slice(from)) {
      const browser = browsers.find((b) => new URL(b.endpoint).pathname === request.path);
      if (!browser) throw new Error(`a push to a browser the test did not expect: ${request.path}`);
      const { claims, publicKey } = await verifyVapid(request.headers.authorization, browser.endpoint);
      expect(publicKey).toBe(vapid.publicKey);
      expect(claims.sub).toBe(SUBJECT);
      expect(request.headers['content-encoding']).toBe('aes128gcm');
      expect(request.headers.urgency).toBe('high');
      expect(Number(request.headers.ttl)).toBe(86400);
      out.set(browser, JSON.parse(browser.decrypt(request.body)) as WebPushPayload);
    }
    return out;
  }

  const failuresOf = async (endpoint: string) =>
    (await database.db.select().from(webPushSubscriptions).where(eq(webPushSubscriptions.endpoint, endpoint)))[0]?.failures ?? null;

  it('pushes an incoming message to every member of a conversation without a group, and to nobody of another account', async () => {
    const { accountId, adminId } = await sendingAccount(database.db);
    const readOnly = await member(accountId, 'ReadOnly');
    const adminBrowser = await subscribe(accountId, adminId);
    const readOnlyBrowser = await subscribe(accountId, readOnly);
    const other = await sendingAccount(database.db);
    const otherBrowser = await subscribe(other.accountId, other.adminId);
    const conversationId = await conversation(accountId);

    const from = push.received.length;
    const { delivery: webPush, lines } = delivery();
    await webPush.deliver(received(accountId, conversationId, `Hello from the shop ${'x'.repeat(200)}`));
    await webPush.idle();
    const pushes = await opened(from, [adminBrowser, readOnlyBrowser, otherBrowser]);
    const expected: WebPushPayload = {
      title: 'Ada Lovelace',
      body: `${`Hello from the shop ${'x'.repeat(200)}`.slice(0, 120)}…`,
      url: `/conversations/${conversationId}`,
      tag: conversationId,
    };
    expect(pushes.get(adminBrowser)).toEqual(expected);
    expect(pushes.get(readOnlyBrowser)).toEqual(expected);
    expect(pushes.has(otherBrowser)).toBe(false);
    expect(push.received.slice(from).every((r) => r.headers.topic === conversationId.replaceAll('-', ''))).toBe(true);
    expect(lines.filter((l) => l.msg === 'web push failed')).toEqual([]);
    const [stored] = await database.db.select().from(webPushSubscriptions).where(eq(webPushSubscriptions.endpoint, adminBrowser.endpoint));
    expect(stored?.lastSuccessAt).toBeInstanceOf(Date);
  });

  it("pushes a group's conversation to the group's users and the administrators only", async () => {
    const { accountId, adminId } = await sendingAccount(database.db);
    const inGroup = await member(accountId, 'Sender');
    const outside = await member(accountId, 'Sender');
    const managerOutside = await member(accountId, 'CampaignManager');
    const browsers = {
      admin: await subscribe(accountId, adminId),
      inGroup: await subscribe(accountId, inGroup),
      outside: await subscribe(accountId, outside),
      managerOutside: await subscribe(accountId, managerOutside),
    };
    const groupId = await group(accountId, [inGroup]);
    await group(accountId, [outside]);
    const conversationId = await conversation(accountId, groupId, { firstName: '', lastName: '' });

    const from = push.received.length;
    const { delivery: webPush } = delivery();
    await webPush.deliver(received(accountId, conversationId, '', [{ url: 'https://example.test/a.jpg', type: 'image/jpeg', filename: 'a.jpg' }]));
    await webPush.idle();
    const pushes = await opened(from, Object.values(browsers));
    expect([...pushes.keys()].sort()).toEqual([browsers.admin, browsers.inGroup].sort());
    // No name: the number, as the account's country (US) writes it; media only: 'Picture'.
    expect(pushes.get(browsers.inGroup)).toMatchObject({ title: expect.stringMatching(/^\(415\) \d{3}-\d{4}$/) as string, body: 'Picture' });
  });

  it('goes from an inbound message through the outbox to the browser', async () => {
    const account = await sendingAccount(database.db);
    const browser = await subscribe(account.accountId, account.adminId);
    const groupId = await group(account.accountId, []);
    await database.db.insert(groupPhoneNumbers).values({ groupId, phoneNumberId: account.numberId });
    const sender = await member(account.accountId, 'Sender');
    const senderBrowser = await subscribe(account.accountId, sender);
    const from = push.received.length;
    const { delivery: webPush } = delivery();
    const mobile = uniqueSendingTestNumber();
    const result = await receiveInbound(
      database, DEPLOYMENT_SIMULATOR,
      { carrierMessageId: `in-${randomUUID()}`, from: mobile, to: account.number, text: 'Are you open today?', media: [], receivedAt: new Date() },
      silentLogger(),
    );
    expect(result.outcome).toBe('received');
    const dispatcher = new OutboxDispatcher(database, [webPush], silentLogger());
    while (await dispatcher.dispatchOnce());
    await webPush.idle();
    const pushes = await opened(from, [browser, senderBrowser]);
    // The new conversation is the number's group's: its users (none) and the administrator.
    expect([...pushes.values()]).toEqual([
      { title: formatPhoneNumber(mobile, 'US'), body: 'Are you open today?', url: expect.stringMatching(/^\/conversations\/[0-9a-f-]{36}$/) as string, tag: expect.any(String) as string },
    ]);
    expect(pushes.has(browser)).toBe(true);
  });

  it('removes a subscription the push service says is gone (404, 410) and counts other failures', async () => {
    const { accountId, adminId } = await sendingAccount(database.db);
    const gone = await subscribe(accountId, adminId);
    const notFound = await subscribe(accountId, await member(accountId, 'Sender'));
    const failing = await subscribe(accountId, await member(accountId, 'Sender'));
    const fine = await subscribe(accountId, await member(accountId, 'Sender'));
    push.answer(new URL(gone.endpoint).pathname, 410);
    push.answer(new URL(notFound.endpoint).pathname, 404);
    push.answer(new URL(failing.endpoint).pathname, 500);
    const conversationId = await conversation(accountId);

    const { delivery: webPush, lines } = delivery();
    await webPush.deliver(received(accountId, conversationId, 'Hi'));
    await webPush.idle();
    expect(await failuresOf(gone.endpoint)).toBeNull();
    expect(await failuresOf(notFound.endpoint)).toBeNull();
    expect(await failuresOf(failing.endpoint)).toBe(1);
    expect(await failuresOf(fine.endpoint)).toBe(0);
    expect(lines).toContainEqual(
      expect.objectContaining({ msg: 'web push failed', status: 500, pushService: push.origin, reason: 'refused by the test push service' }),
    );
    // The endpoint (the browser's secret) is never logged.
    expect(JSON.stringify(lines)).not.toContain(failing.endpoint);

    // Failing again and again without a success: dropped at the limit.
    for (let i = 1; i < MAX_CONSECUTIVE_FAILURES - 1; i++) await webPush.deliver(received(accountId, conversationId, 'Hi'));
    await webPush.idle();
    expect(await failuresOf(failing.endpoint)).toBe(MAX_CONSECUTIVE_FAILURES - 1);
    await webPush.deliver(received(accountId, conversationId, 'Hi'));
    await webPush.idle();
    expect(await failuresOf(failing.endpoint)).toBeNull();
    expect(await failuresOf(fine.endpoint)).toBe(0);
  });

  it('pushes to no endpoint at an address of this machine or its network, unless the operator allows it', async () => {
    const { accountId, adminId } = await sendingAccount(database.db);
    const browser = await subscribe(accountId, adminId);
    const conversationId = await conversation(accountId);
    const before = push.received.length;

    const { delivery: guarded, lines } = delivery({ allowedHosts: [] });
    await guarded.deliver(received(accountId, conversationId, 'Hi'));
    await guarded.idle();
    expect(push.received.length).toBe(before);
    expect(await failuresOf(browser.endpoint)).toBe(1);
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'web push failed', reason: expect.stringContaining('not a public address') as unknown }));
  });

  it('keeps a subscription that succeeded lately through a run of failures, and a success resets the count', async () => {
    const { accountId, adminId } = await sendingAccount(database.db);
    const browser = await subscribe(accountId, adminId);
    const path = new URL(browser.endpoint).pathname;
    const conversationId = await conversation(accountId);
    const { delivery: webPush } = delivery();
    await webPush.deliver(received(accountId, conversationId, 'ok'));
    await webPush.idle();
    push.answer(path, 503);
    for (let i = 0; i < MAX_CONSECUTIVE_FAILURES + 2; i++) await webPush.deliver(received(accountId, conversationId, 'down'));
    await webPush.idle();
    expect(await failuresOf(browser.endpoint)).toBe(MAX_CONSECUTIVE_FAILURES + 2);
    push.answer(path, 201);
    await webPush.deliver(received(accountId, conversationId, 'back'));
    await webPush.idle();
    expect(await failuresOf(browser.endpoint)).toBe(0);
  });

  it('never holds the outbox: deliver returns at once, a silent push service times out and is counted', async () => {
    const { accountId, adminId } = await sendingAccount(database.db);
    const slow = await subscribe(accountId, adminId);
    push.answer(new URL(slow.endpoint).pathname, 201, 2000);
    const conversationId = await conversation(accountId);
    const { delivery: webPush, lines } = delivery({ timeoutMs: 200 });
    const started = Date.now();
    await webPush.deliver(received(accountId, conversationId, 'Hi'));
    expect(Date.now() - started).toBeLessThan(100);
    await webPush.idle();
    expect(Date.now() - started).toBeLessThan(1500);
    expect(await failuresOf(slow.endpoint)).toBe(1);
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'web push failed', status: null, reason: 'no answer within 200 ms' }));
  });

  it('ignores other events, malformed ones and a conversation that is not the account’s, without throwing', async () => {
    const { accountId, adminId } = await sendingAccount(database.db);
    await subscribe(accountId, adminId);
    const other = await sendingAccount(database.db);
    const othersConversation = await conversation(other.accountId);
    const from = push.received.length;
    const { delivery: webPush, lines } = delivery();
    await webPush.deliver({ ...received(accountId, othersConversation, 'x'), type: 'messageSent' });
    await webPush.deliver({ ...received(accountId, othersConversation, 'x'), data: { nothing: true } });
    await webPush.deliver(received(accountId, othersConversation, 'not yours'));
    await webPush.idle();
    expect(push.received.length).toBe(from);
    expect(lines.map((l) => l.msg)).toEqual(['messageReceived event without a message: no push']);
  });

  it('drops what waits when it stops, and takes nothing after', async () => {
    const { accountId, adminId } = await sendingAccount(database.db);
    const browser = await subscribe(accountId, adminId);
    push.answer(new URL(browser.endpoint).pathname, 201, 300);
    const conversationId = await conversation(accountId);
    const { delivery: webPush } = delivery();
    const from = push.received.length;
    for (let i = 0; i < 10; i++) await webPush.deliver(received(accountId, conversationId, `m${String(i)}`));
    await webPush.stop();
    await webPush.deliver(received(accountId, conversationId, 'after stop'));
    await webPush.idle();
    // The messages being handled finished; the rest never went.
    expect(push.received.length - from).toBe(MESSAGE_WORKERS);
  });
});
