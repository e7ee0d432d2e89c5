import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import type { Integration } from '@parley/shared';
import { conversations, integrationActivities, integrationConversations, intercomReplies, messages } from '../../../platform/db/schema/index.js';
import { OutboxDispatcher } from '../../../platform/events/outboxDispatcher.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { silentLogger } from '../../../test/logger.js';
import { uniqueTestNumber } from '../../../test/phoneNumbers.js';
import { sendingAccount, type SendingAccount } from '../../../test/sendingFixtures.js';
import { createMessageHandlers } from '../../messaging/handlers.js';
import { IntegrationActivitySubscriber } from '../activitySubscriber.js';
import { OAUTH_STATE_INVALID_MESSAGE } from '../oauthCommands.js';
import { INTERCOM_WEBHOOK_UNSIGNED_MESSAGE } from '../routes/intercomWebhook.js';
import { startIntegrationHarness, type IntegrationHarness } from '../test/integrationHarness.js';
import { INTERCOM_NOT_SENT_NOTE, INTERCOM_REPLY_JOB_NAME } from './intercomReplyJob.js';
import { connectIntercom, intercomEnv, postNotification } from './test/intercomFixtures.js';
import { startIntercomPeer, type IntercomPeer } from './test/intercomPeer.js';

describe.each(testDatabaseKinds)('Intercom connector (%s)', (kind) => {
  let h: IntegrationHarness;
  let peer: IntercomPeer;
  let account: SendingAccount;
  let token: string;
  beforeAll(async () => {
    peer = await startIntercomPeer();
    h = await startIntegrationHarness(kind, intercomEnv(peer));
    account = await sendingAccount(h.database.db);
    token = h.tokenFor(account.adminId);
    expect(await connectIntercom(h, account.accountId, token)).toBe('http://parley.test/integrations/intercom');
  });
  afterAll(async () => {
    await h.close();
    await peer.close();
  });

  const url = (path = ''): string => `/v1/accounts/${account.accountId}/integrations/intercom${path}`;
  const read = async (): Promise<Integration> => (await h.call('GET', url(), token)).json<{ data: Integration }>().data;

  /** A text from the contact's phone to the account's number, through the carrier's door. */
  const textIn = (from: string, text: string) =>
    createMessageHandlers({ database: h.database, log: silentLogger() })
      .forConnection({ carrier: 'simulator', carrierSettingsId: null })
      .inbound({ carrierMessageId: crypto.randomUUID(), from, to: account.number, text, media: [], receivedAt: new Date() });

  /** Delivers the outbox's pending events to the integrations' subscriber, then runs the activities job. */
  async function dispatchAndRecord(): Promise<void> {
    const dispatcher = new OutboxDispatcher(h.database, [new IntegrationActivitySubscriber(h.deps.jobs, h.activityJob)], silentLogger());
    while (await dispatcher.dispatchOnce());
    await h.run(h.activityJob, {});
  }

  const parleyConversation = async (mobile: string) => {
    const [row] = await h.database.db
      .select({ id: conversations.id, closedAt: conversations.closedAt, link: integrationConversations })
      .from(conversations)
      .innerJoin(integrationConversations, eq(integrationConversations.conversationId, conversations.id))
      .innerJoin(messages, eq(messages.conversationId, conversations.id))
      .where(and(eq(conversations.accountId, account.accountId), eq(messages.fromNumber, mobile)))
      .orderBy(asc(conversations.createdAt))
      .limit(1);
    if (row === undefined) throw new Error('no linked conversation');
    return row;
  };
  const outbound = (conversationId: string) =>
    h.database.db.select({ text: messages.body, fromNumber: messages.fromNumber }).from(messages).where(and(eq(messages.conversationId, conversationId), eq(messages.direction, 'outbound')));
  /** The reply delay passes: the held parts fall due. */
  const delayPasses = () => h.database.db.update(intercomReplies).set({ dueAt: new Date(Date.now() - 1000) }).where(eq(intercomReplies.accountId, account.accountId));

  it('connects through the authorize page as the workspace; refuses a tampered state; sends no PKCE', async () => {
    const start = await h.call('GET', url('/oauth/start'), token);
    const authorize = new URL(start.json<{ data: { url: string } }>().data.url);
    expect(authorize.pathname).toBe('/oauth');
    expect(authorize.searchParams.get('redirect_uri')).toBe('http://parley.test/v1/integrations/intercom/oauth/callback');
    expect(authorize.searchParams.has('code_challenge')).toBe(false);
    expect(await connectIntercom(h, account.accountId, token, true)).toBe(`http://parley.test/integrations/intercom?error=${encodeURIComponent(OAUTH_STATE_INVALID_MESSAGE)}`);
    const integration = await read();
    expect(integration).toMatchObject({ status: 'connected', auth: 'oauth', connection: { workspace: 'Acme Support', workspaceId: 'acmeapp1' }, properties: { replyDelayMinutes: 5 } });
    expect(JSON.stringify(integration)).not.toContain(peer.accessToken);
  });

  it('saves the reply delay as a change of one property; refuses a delay not offered', async () => {
    expect((await h.call('PUT', url('/properties'), token, { replyDelayMinutes: 7 })).statusCode).toBe(400);
    const saved = await h.call('PUT', url('/properties'), token, { replyDelayMinutes: 10 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await read()).properties).toEqual({ replyDelayMinutes: 10 });
    await h.call('PUT', url('/properties'), token, { replyDelayMinutes: 5 });
  });

  it('opens one Intercom conversation for the first text and continues it with the next, each posted once', async () => {
    const mobile = uniqueTestNumber();
    await textIn(mobile, 'Is my order shipped?');
    await dispatchAndRecord();
    await textIn(mobile, 'Order 1234');
    await dispatchAndRecord();
    const contact = peer.contacts.filter((c) => c.phone === mobile);
    expect(contact).toMatchObject([{ role: 'user', phone: mobile }]);
    const carried = peer.conversations.filter((c) => c.contactId === contact[0]?.id);
    expect(carried).toHaveLength(1);
    expect(carried[0]?.parts.map((p) => [p.author.type, p.body])).toEqual([['user', 'Is my order shipped?'], ['user', 'Order 1234']]);

    // The job comes back to the same rows (a retry): nothing is posted twice.
    await h.database.db.update(integrationActivities).set({ status: 'pending' }).where(eq(integrationActivities.accountId, account.accountId));
    await h.run(h.activityJob, {});
    expect(carried[0]?.parts).toHaveLength(2);
    expect((await parleyConversation(mobile)).link).toMatchObject({ externalId: carried[0]?.id, status: 'open' });
  });

  it("texts an agent's signed reply after the delay, as text, from the conversation's number; refuses forged or unsigned ones", async () => {
    const mobile = uniqueTestNumber();
    await textIn(mobile, 'Hello?');
    await dispatchAndRecord();
    const { id, link } = await parleyConversation(mobile);

    const forged = peer.agentReply(link.externalId, '<p>Forged</p>', 'not-the-secret');
    expect((await postNotification(h, forged)).statusCode).toBe(401);
    const unsigned = await postNotification(h, { body: forged.body, signature: null });
    expect(unsigned.statusCode).toBe(401);
    expect(unsigned.json<{ error: { message: string } }>().error.message).toBe(INTERCOM_WEBHOOK_UNSIGNED_MESSAGE);
    const tampered = peer.agentReply(link.externalId, '<p>Hi</p>');
    expect((await postNotification(h, { body: tampered.body.replace('Hi', 'Pay'), signature: tampered.signature })).statusCode).toBe(401);

    const before = Date.now();
    const reply = peer.agentReply(link.externalId, '<p>Hi Ann, it ships <b>today</b> &amp; arrives Friday.</p><p>Track: <a href="https://t.example/1">here</a></p>');
    const accepted = await postNotification(h, reply);
    expect(accepted.json()).toEqual({ success: true, outcome: 'scheduled' });
    expect((await postNotification(h, reply)).json()).toEqual({ success: true, outcome: 'ignored' });
    const queued = (await h.queued(INTERCOM_REPLY_JOB_NAME)).filter((j) => j.data.linkId === link.id);
    expect(queued).toHaveLength(1);
    const wait = (queued[0] === undefined ? 0 : new Date(queued[0].start_after).getTime()) - before;
    expect(wait).toBeGreaterThanOrEqual(5 * 60_000 - 2000);
    expect(wait).toBeLessThanOrEqual(5 * 60_000 + 60_000);

    await h.run(h.intercomReplyJob, { linkId: link.id });
    expect(await outbound(id)).toHaveLength(0);
    await delayPasses();
    await h.run(h.intercomReplyJob, { linkId: link.id });
    expect(await outbound(id)).toEqual([{ text: 'Hi Ann, it ships today & arrives Friday.\nTrack: here (https://t.example/1)', fromNumber: account.number }]);
    await h.run(h.intercomReplyJob, { linkId: link.id });
    expect(await outbound(id)).toHaveLength(1);
    // What Parley sends is not carried back into Intercom.
    await dispatchAndRecord();
    expect(peer.conversations.find((c) => c.id === link.externalId)?.parts.filter((p) => p.author.type === 'user')).toHaveLength(1);
  });

  it('sends at once with a delay of 0; replies in the window go together, in order, once', async () => {
    await h.call('PUT', url('/properties'), token, { replyDelayMinutes: 0 });
    const mobile = uniqueTestNumber();
    await textIn(mobile, 'Hi');
    await dispatchAndRecord();
    const { id, link } = await parleyConversation(mobile);
    const before = Date.now();
    await postNotification(h, peer.agentReply(link.externalId, '<p>One</p>'));
    await postNotification(h, peer.agentReply(link.externalId, '<p>Two</p>'));
    const queued = (await h.queued(INTERCOM_REPLY_JOB_NAME)).filter((j) => j.data.linkId === link.id);
    expect(queued.every((j) => new Date(j.start_after).getTime() - before < 60_000)).toBe(true);
    // Both jobs run at once: the parts are claimed by one of them.
    await Promise.all(queued.map(() => h.run(h.intercomReplyJob, { linkId: link.id })));
    expect(await outbound(id)).toEqual([{ text: 'One\n\nTwo', fromNumber: account.number }]);
    await h.call('PUT', url('/properties'), token, { replyDelayMinutes: 5 });
  });

  it('closes the Parley conversation when Intercom closes it (after replies held in the window), and not back again', async () => {
    const mobile = uniqueTestNumber();
    await textIn(mobile, 'Thanks');
    await dispatchAndRecord();
    const { id, link } = await parleyConversation(mobile);
    await postNotification(h, peer.agentReply(link.externalId, '<p>You are welcome</p>'));
    const closed = peer.notification('conversation.admin.closed', link.externalId);
    expect((await postNotification(h, closed)).json()).toEqual({ success: true, outcome: 'scheduled' });
    expect((await parleyConversation(mobile)).closedAt).toBeNull();

    await delayPasses();
    await h.run(h.intercomReplyJob, { linkId: link.id });
    expect(await outbound(id)).toHaveLength(1);
    const after = await parleyConversation(mobile);
    expect(after.closedAt).not.toBeNull();
    expect(after.link.status).toBe('closed');
    const closesBefore = peer.requests.filter((r) => r.endsWith('/parts')).length;
    await dispatchAndRecord();
    expect(peer.requests.filter((r) => r.endsWith('/parts')).length).toBe(closesBefore);
    expect((await postNotification(h, closed)).json()).toEqual({ success: true, outcome: 'ignored' });

    const other = uniqueTestNumber();
    await textIn(other, 'Bye');
    await dispatchAndRecord();
    const direct = await parleyConversation(other);
    expect((await postNotification(h, peer.notification('conversation.admin.closed', direct.link.externalId))).json()).toEqual({ success: true, outcome: 'closed' });
    expect((await parleyConversation(other)).closedAt).not.toBeNull();
  });

  it('closes the Intercom conversation as the connecting admin when Parley closes it; the next text opens a new one', async () => {
    const mobile = uniqueTestNumber();
    await textIn(mobile, 'Question');
    await dispatchAndRecord();
    const { id, link } = await parleyConversation(mobile);
    const closed = await h.call('PUT', `/v1/accounts/${account.accountId}/conversations/${id}/close`, token);
    expect(closed.statusCode, closed.body).toBe(200);
    await dispatchAndRecord();
    const there = peer.conversations.find((c) => c.id === link.externalId);
    expect(there?.state).toBe('closed');
    expect(there?.parts.at(-1)).toMatchObject({ part_type: 'close', author: { type: 'admin', id: peer.admin.id } });

    await textIn(mobile, 'Another question');
    await dispatchAndRecord();
    const contact = peer.contacts.find((c) => c.phone === mobile);
    expect(peer.conversations.filter((c) => c.contactId === contact?.id).map((c) => c.state)).toEqual(['closed', 'open']);
    expect(peer.contacts.filter((c) => c.phone === mobile)).toHaveLength(1);
  });

  it("tells the agents in a note when the account's send refuses the reply (the contact opted out)", async () => {
    await h.call('PUT', url('/properties'), token, { replyDelayMinutes: 0 });
    const mobile = uniqueTestNumber();
    await textIn(mobile, 'Hi');
    await textIn(mobile, 'STOP');
    await dispatchAndRecord();
    const { id, link } = await parleyConversation(mobile);
    await postNotification(h, peer.agentReply(link.externalId, '<p>Still there?</p>'));
    await h.run(h.intercomReplyJob, { linkId: link.id });
    expect((await outbound(id)).map((m) => m.text)).not.toContain('Still there?');
    const [held] = await h.database.db.select().from(intercomReplies).where(eq(intercomReplies.linkId, link.id));
    expect(held?.status).toBe('failed');
    const note = peer.conversations.find((c) => c.id === link.externalId)?.parts.at(-1);
    expect(note).toMatchObject({ part_type: 'note', author: { type: 'admin', id: peer.admin.id } });
    expect(note?.body).toBe(`${INTERCOM_NOT_SENT_NOTE}: ${held?.error ?? ''}`);
    await h.call('PUT', url('/properties'), token, { replyDelayMinutes: 5 });
  });

  it("ignores another workspace's notifications and answers a ping", async () => {
    const mobile = uniqueTestNumber();
    await textIn(mobile, 'Hi');
    await dispatchAndRecord();
    const { link } = await parleyConversation(mobile);
    const reply = peer.agentReply(link.externalId, '<p>Hi</p>');
    const elsewhere = reply.body.replace('"app_id":"acmeapp1"', '"app_id":"otherapp"');
    const { createHmac } = await import('node:crypto');
    const signature = `sha1=${createHmac('sha1', peer.clientSecret).update(elsewhere).digest('hex')}`;
    expect((await postNotification(h, { body: elsewhere, signature })).json()).toEqual({ success: true, outcome: 'ignored' });
    expect((await postNotification(h, peer.notification('ping', 'none'))).statusCode).toBe(200);
    expect((await postNotification(h, { body: 'not json', signature: `sha1=${createHmac('sha1', peer.clientSecret).update('not json').digest('hex')}` })).statusCode).toBe(400);
  });

  it('disconnects: the credentials go, webhooks of the workspace change nothing', async () => {
    const mobile = uniqueTestNumber();
    await textIn(mobile, 'Hi');
    await dispatchAndRecord();
    const { link } = await parleyConversation(mobile);
    const gone = await h.call('DELETE', url('/disconnect'), token);
    expect(gone.json<{ data: Integration }>().data.status).toBe('notConnected');
    expect((await postNotification(h, peer.agentReply(link.externalId, '<p>Late</p>'))).json()).toEqual({ success: true, outcome: 'ignored' });
    expect(await connectIntercom(h, account.accountId, token)).toBe('http://parley.test/integrations/intercom');
  });
});
