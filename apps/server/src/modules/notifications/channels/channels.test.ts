import crypto from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SLACK_CHANNEL_UNKNOWN_MESSAGE, type NotificationChannel } from '@parley/shared';
import { accountMembers, contactGroups, conversations, messages, notificationChannels, users } from '../../../platform/db/schema/index.js';
import { queryRows } from '../../../platform/db/client.js';
import { OutboxDispatcher } from '../../../platform/events/outboxDispatcher.js';
import { createLocalMailbox } from '../../../platform/mail/localMailbox.js';
import { startApiHarness, type ApiHarness } from '../../../test/apiHarness.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { createUser } from '../../../test/factories.js';
import { silentLogger } from '../../../test/logger.js';
import { addContact, sendingAccount, uniqueSendingTestNumber } from '../../../test/sendingFixtures.js';
import { DEPLOYMENT_SIMULATOR } from '../../carriers/index.js';
import { createMessageHandlers, expandEventRows } from '../../messaging/index.js';
import { ChannelFanout } from './channelFanout.js';
import { ChannelSender } from './channelSender.js';
import { slackApiOf } from './channelDeps.js';
import { SlackPeer } from './test/slackPeer.js';

const key = crypto.randomBytes(32).toString('base64');

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not in time: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe.each(testDatabaseKinds)('notification channels on %s', (kind) => {
  const peer = new SlackPeer();
  let h: ApiHarness;
  let dispatcher: OutboxDispatcher;
  let sender: ChannelSender;

  beforeAll(async () => {
    await peer.start();
    h = await startApiHarness(kind, { ...peer.env(), SECRETS_KEY: key, FETCH_ALLOWED_HOSTS: '127.0.0.1', PUBLIC_URL: 'http://parley.test' });
    const config = { slack: { clientId: peer.clientId, clientSecret: peer.clientSecret, signingSecret: peer.signingSecret, apiUrl: peer.apiUrl, oauthUrl: '' }, fetch: { allowedHosts: ['127.0.0.1'] } };
    sender = new ChannelSender({
      database: h.database,
      mailer: createLocalMailbox(h.database.db),
      carriers: h.carriers,
      secrets: { key: Buffer.from(key, 'base64'), keyFile: null },
      slack: slackApiOf(config),
      publicUrl: 'http://parley.test',
      log: silentLogger(),
      quietMs: 200,
      pollIntervalMs: 50,
    });
    await sender.start();
    dispatcher = new OutboxDispatcher(h.database, [new ChannelFanout(() => {
      sender.wake();
    })], silentLogger(), { pollIntervalMs: 50, expand: expandEventRows });
    await dispatcher.start();
  });
  afterAll(async () => {
    await dispatcher.stop();
    await sender.stop();
    await h.close();
    await peer.stop();
  });

  const base = (acc: string) => `/v1/accounts/${acc}/notificationchannels`;

  /** An account with a number, an administrator connected to Slack's #support, and a contact. */
  async function slackAccount() {
    const sending = await sendingAccount(h.database.db);
    const token = h.tokenFor(sending.adminId);
    const authorize = await h.call('GET', `${base(sending.accountId)}/slack/authorize`, token);
    expect(authorize.statusCode, authorize.body).toBe(200);
    const url = new URL(authorize.json<{ data: { url: string } }>().data.url);
    expect(url.searchParams.get('client_id')).toBe(peer.clientId);
    expect(url.searchParams.get('scope')).toBe('chat:write,channels:read,groups:read,channels:history');
    const state = url.searchParams.get('state') ?? '';
    const callback = await h.call('GET', `/v1/notificationchannels/slack/callback?code=${peer.code}&state=${encodeURIComponent(state)}`);
    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).toBe('http://parley.test/notifications/slack?connected=1');
    const slack = (await h.call('GET', `${base(sending.accountId)}/slack`, token)).json<{ data: NotificationChannel }>().data;
    expect(slack.options.availableChannels.map((c) => c.name)).toEqual(['general', 'support']);
    const saved = await h.call('PUT', `${base(sending.accountId)}/slack`, token, { channelId: 'C0SUPPORT', groups: [] });
    expect(saved.statusCode, saved.body).toBe(200);
    const contact = await addContact(h.database.db, sending.accountId, { firstName: 'Grace', lastName: 'Hopper' });
    return { ...sending, token, contact, channel: saved.json<{ data: NotificationChannel }>().data };
  }

  const inbound = (from: string, to: string, text: string) =>
    createMessageHandlers({ database: h.database, log: silentLogger() })
      .forConnection(DEPLOYMENT_SIMULATOR)
      .inbound({ carrierMessageId: crypto.randomUUID(), from, to, text, media: [], receivedAt: new Date() });

  const postEvent = (body: string, headers: Record<string, string>) => h.app.inject({ method: 'POST', url: '/v1/notificationchannels/slack/events', payload: body, headers });

  it('connects Slack, posts an inbound message to the chosen channel, and texts a thread reply to the contact once', async () => {
    const { accountId, number, contact, channel } = await slackAccount();
    expect(channel).toMatchObject({ channel: 'slack', connected: true, destination: 'Acme Support #support' });
    const [stored] = await h.database.db.select().from(notificationChannels).where(eq(notificationChannels.accountId, accountId));
    expect(stored?.secret).not.toContain(peer.token);

    await inbound(contact.mobileNumber, number, 'Is my order ready?');
    await until(() => peer.posts.some((p) => p.text.includes('Is my order ready?')), 'the Slack post');
    const post = peer.posts.find((p) => p.text.includes('Is my order ready?'));
    expect(post?.channel).toBe('C0SUPPORT');
    expect(post?.text).toContain('Grace Hopper');
    expect(JSON.stringify(post?.blocks)).toMatch(/http:\/\/parley\.test\/conversations\/[0-9a-f-]{36}/);
    if (post === undefined) return;

    const body = JSON.stringify(peer.replyEvent(post, 'Yes &amp; it ships today', { eventId: 'EvREPLY1' }));
    const first = await postEvent(body, peer.signedHeaders(body));
    expect(first.statusCode, first.body).toBe(200);
    // Slack retries an event it thinks was lost: applied once.
    const again = await postEvent(body, peer.signedHeaders(body, undefined, 1));
    expect(again.statusCode).toBe(200);
    const sent = await h.database.db.select().from(messages).where(sql`${messages.accountId} = ${accountId} and ${messages.direction} = 'outbound'`);
    expect(sent.map((m) => [m.body, m.toNumber])).toEqual([['Yes & it ships today', contact.mobileNumber]]);
    const [conversation] = await h.database.db.select().from(conversations).where(eq(conversations.contactId, contact.id));
    expect(sent[0]?.conversationId).toBe(conversation?.id);

    // The bot's own message in the thread is no reply.
    const bot = JSON.stringify(peer.replyEvent(post, 'echo', { botId: 'B0BOT', user: peer.botUserId }));
    expect((await postEvent(bot, peer.signedHeaders(bot))).statusCode).toBe(200);
    const after = await h.database.db.select().from(messages).where(sql`${messages.accountId} = ${accountId} and ${messages.direction} = 'outbound'`);
    expect(after).toHaveLength(1);
  });

  it('refuses unsigned, tampered and stale events, and answers the URL check', async () => {
    const challenge = JSON.stringify({ type: 'url_verification', challenge: 'abc123', token: 'x' });
    const ok = await postEvent(challenge, peer.signedHeaders(challenge));
    expect(ok.statusCode).toBe(200);
    expect(ok.json<{ challenge: string }>().challenge).toBe('abc123');
    expect((await postEvent(challenge, { 'content-type': 'application/json' })).statusCode).toBe(401);
    const tampered = peer.signedHeaders(challenge);
    expect((await postEvent(challenge.replace('abc123', 'evil'), tampered)).statusCode).toBe(401);
    const stale = Math.floor(Date.now() / 1000) - 6 * 60;
    expect((await postEvent(challenge, peer.signedHeaders(challenge, stale))).statusCode).toBe(401);
  });

  it('hears only the chosen groups, and nothing once disconnected', async () => {
    const { accountId, adminId, number, token } = await slackAccount();
    const [group] = await h.database.db.insert(contactGroups).values({ id: crypto.randomUUID(), accountId, name: 'Sales' }).returning();
    if (!group) throw new Error('no group');
    const settings = { sound: 'chime', repeat: 2, muted: false };
    const chosen = await h.call('PUT', `${base(accountId)}/slack`, token, { groups: [{ id: group.id, settings }] });
    expect(chosen.statusCode, chosen.body).toBe(200);
    // Kept as sent, and given back (docs/decisions.md, "Notification texts").
    const read = await h.call('GET', `${base(accountId)}/slack`, token);
    expect(read.json<{ data: { groups: unknown[] } }>().data.groups).toEqual([{ id: group.id, settings }]);
    const foreign = await h.call('PUT', `${base(accountId)}/email`, token, { groups: [{ id: crypto.randomUUID(), settings: {} }] });
    expect(foreign.statusCode).toBe(404);
    const unknownChannel = await h.call('PUT', `${base(accountId)}/slack`, token, { channelId: 'C0NOPE' });
    expect(unknownChannel.statusCode).toBe(400);
    expect(unknownChannel.json<{ error: { message: string } }>().error.message).toBe(SLACK_CHANNEL_UNKNOWN_MESSAGE);

    const outside = await addContact(h.database.db, accountId, { firstName: 'Ungrouped' });
    await inbound(outside.mobileNumber, number, 'not for Slack');
    const inside = await addContact(h.database.db, accountId, { firstName: 'Grouped' });
    await inbound(inside.mobileNumber, number, 'first');
    await h.database.db.update(conversations).set({ groupId: group.id }).where(eq(conversations.contactId, inside.id));
    await inbound(inside.mobileNumber, number, 'for the Sales group');
    await until(() => peer.posts.some((p) => p.text.includes('for the Sales group')), 'the grouped post');
    expect(peer.posts.some((p) => p.text.includes('not for Slack'))).toBe(false);

    expect((await h.call('DELETE', `${base(accountId)}/slack/disconnect`, token)).statusCode).toBe(204);
    expect((await h.call('DELETE', `${base(accountId)}/slack/disconnect`, token)).statusCode).toBe(404);
    await inbound(inside.mobileNumber, number, 'after disconnect');
    await new Promise((r) => setTimeout(r, 400));
    expect(peer.posts.some((p) => p.text.includes('after disconnect'))).toBe(false);
    const rows = await h.database.db.select().from(notificationChannels).where(eq(notificationChannels.userId, adminId));
    expect(rows).toHaveLength(0);
  });

  it("answers 404 for another user's and another account's channel", async () => {
    const { accountId, channel, token } = await slackAccount();
    const other = await createUser(h.database.db);
    await h.database.db.insert(accountMembers).values({ accountId, userId: other.id, role: 'Sender' });
    const otherToken = h.tokenFor(other.id);
    expect((await h.call('GET', `${base(accountId)}/${channel.id ?? ''}`, otherToken)).statusCode).toBe(404);
    expect((await h.call('DELETE', `${base(accountId)}/${channel.id ?? ''}/disconnect`, otherToken)).statusCode).toBe(404);
    // Administrators see who connected; others only themselves.
    const list = (await h.call('GET', base(accountId), token)).json<{ data: NotificationChannel[] }>().data;
    expect(list.map((c) => [c.channel, c.connected])).toEqual([['email', false], ['sms', false], ['slack', true]]);
    const theirs = (await h.call('GET', base(accountId), otherToken)).json<{ data: NotificationChannel[] }>().data;
    expect(theirs.every((c) => c.connectedUsers.length === 0)).toBe(true);

    const elsewhere = await sendingAccount(h.database.db);
    const elsewhereToken = h.tokenFor(elsewhere.adminId);
    expect((await h.call('GET', `${base(elsewhere.accountId)}/${channel.id ?? ''}`, elsewhereToken)).statusCode).toBe(404);
    expect((await h.call('GET', `${base(accountId)}/slack`, elsewhereToken)).statusCode).toBe(404);
  });

  it('texts an SMS channel through the account number, charged to the account, never for the user’s own mobile', async () => {
    const { accountId, adminId, number, token } = await slackAccount();
    const noMobile = await h.call('PUT', `${base(accountId)}/sms`, token, { groups: [] });
    expect(noMobile.statusCode).toBe(400);
    const mobile = uniqueSendingTestNumber();
    await h.database.db.update(users).set({ mobileNumber: mobile, mobileCountry: 'US' }).where(eq(users.id, adminId));
    expect((await h.call('PUT', `${base(accountId)}/sms`, token, { groups: [] })).statusCode).toBe(200);
    const contact = await addContact(h.database.db, accountId, { firstName: 'Linus' });
    await inbound(contact.mobileNumber, number, 'hello by text');
    const texts = async () =>
      (await queryRows<{ n: number }>(h.database.db, sql`select count(*)::int as n from notification_channel_posts p join notification_channels c on c.id = p.channel_id where c.channel = 'sms' and c.account_id = ${accountId} and p.status = 'sent'`))[0]?.n;
    await until(async () => (await texts()) === 1, 'the text');
    const ledger = await queryRows<{ description: string }>(h.database.db, sql`select description from account_transactions where account_id = ${accountId} and kind = 'debit'`);
    expect(ledger.map((r) => r.description)).toContain(`Notification text to ${mobile}`);
    // No message row: the contact's conversation holds only what the contact wrote.
    const outbound = await h.database.db.select().from(messages).where(sql`${messages.accountId} = ${accountId} and ${messages.direction} = 'outbound'`);
    expect(outbound).toHaveLength(0);
    // The user's own mobile texting the account makes no text back to it.
    await inbound(mobile, number, 'from my own phone');
    await until(() => peer.posts.some((p) => p.text.includes('from my own phone')), 'the Slack post of it');
    await new Promise((r) => setTimeout(r, 300));
    expect(await texts()).toBe(1);
  });
});
