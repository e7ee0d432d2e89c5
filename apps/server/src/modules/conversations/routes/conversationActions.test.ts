import { randomUUID } from 'node:crypto';
import { DEPLOYMENT_SIMULATOR } from '../../carriers/registry.js';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  CONVERSATION_CLOSED_MESSAGE,
  CONVERSATION_NOTHING_TO_MARK_UNREAD_MESSAGE,
  roles,
  type Conversation,
} from '@parley/shared';
import { queryRows } from '../../../platform/db/client.js';
import { conversations, messages } from '../../../platform/db/schema/index.js';
import { receiveInbound } from '../../messaging/inbound.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { silentLogger } from '../../../test/logger.js';
import { useRouteHarness } from '../../../test/routeHarness.js';
import { addPhoneNumber, messagingCounts, sendingAccount, type SendingAccount } from '../../../test/sendingFixtures.js';
import { addConversation, addGroup, addMember, addMessage } from '../../../test/conversations.js';

describe.each(testDatabaseKinds)('conversations: close, assign a group, mark read on %s', (kind) => {
  const { h, fixtures, tokens } = useRouteHarness(kind);

  let account: SendingAccount;
  let admin: string;
  beforeAll(async () => {
    account = await sendingAccount(h.database.db);
    admin = h.tokenFor(account.adminId);
  });

  const url = (id: string, action: string, acc = account.accountId) => `/v1/accounts/${acc}/conversations/${id}/${action}`;
  const put = async (id: string, action: string, token: string, body?: object) => {
    const res = await h.call('PUT', url(id, action), token, body);
    return { statusCode: res.statusCode, body: res.body, data: res.statusCode === 200 ? res.json<{ data: Conversation }>().data : null };
  };
  const eventsOf = (type: string, conversationId: string) =>
    queryRows<{ group_id: string | null; data: { conversation: Conversation } }>(
      h.database.db,
      sql`select group_id, data from events where type = ${type} and account_id = ${account.accountId}
            and data->'conversation'->>'id' = ${conversationId} order by id`,
    );
  const row = async (id: string) => (await h.database.db.select().from(conversations).where(eq(conversations.id, id)))[0];

  describe('close', () => {
    it('closes (conversationClosed with the conversation), and closing again changes nothing', async () => {
      const conversation = await addConversation(h.database.db, account);
      const first = await put(conversation.id, 'close', admin);
      expect(first.statusCode, first.body).toBe(200);
      expect(first.data).toMatchObject({ id: conversation.id, closed: true });
      expect((await row(conversation.id))?.closedAt?.toISOString()).toBe(first.data?.closedAt);
      const again = await put(conversation.id, 'close', admin, {});
      expect(again.statusCode).toBe(200);
      expect(again.data).toMatchObject({ closed: true, closedAt: first.data?.closedAt });
      const events = await eventsOf('conversationClosed', conversation.id);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        group_id: null,
        data: { conversation: { id: conversation.id, closed: true, closedAt: first.data?.closedAt } },
      });
    });

    it('refuses an answer to a closed conversation, and the next incoming message opens a new one', async () => {
      const conversation = await addConversation(h.database.db, account);
      expect((await put(conversation.id, 'close', admin)).statusCode).toBe(200);
      const before = await messagingCounts(h.database.db, account.accountId);
      const answer = await h.call('POST', `/v1/accounts/${account.accountId}/messages`, admin, { conversations: [conversation.id], template: 'Hi' });
      expect(answer.statusCode).toBe(409);
      expect(answer.json()).toEqual({ error: { code: 'conflict', message: CONVERSATION_CLOSED_MESSAGE } });
      expect(await messagingCounts(h.database.db, account.accountId)).toEqual(before);

      const received = await receiveInbound(
        h.database, DEPLOYMENT_SIMULATOR,
        { carrierMessageId: randomUUID(), from: conversation.mobile, to: account.number, text: 'Back again', media: [], receivedAt: new Date() },
        silentLogger(),
      );
      if (received.outcome !== 'received') throw new Error(received.outcome);
      expect(received.conversationStarted).toBe(true);
      expect(received.message.conversationId).not.toBe(conversation.id);
    });

    it('lets every role but Read Only close, and answers 404 for another account’s or a hidden conversation', async () => {
      for (const role of roles) {
        const target = await addConversation(h.database.db, await fixturesAccount());
        const res = await h.call('PUT', url(target.id, 'close', fixtures.accountId), tokens[role]);
        expect(res.statusCode, role).toBe(role === 'ReadOnly' ? 403 : 200);
        expect((await row(target.id))?.closedAt === null, role).toBe(role === 'ReadOnly');
      }
      const other = await sendingAccount(h.database.db);
      const theirs = await addConversation(h.database.db, other);
      expect((await put(theirs.id, 'close', admin)).statusCode).toBe(404);
      expect((await row(theirs.id))?.closedAt).toBeNull();
      expect((await put('nope', 'close', admin)).statusCode).toBe(404);

      const outsider = h.tokenFor(await addMember(h.database.db, account.accountId, 'Sender'));
      const hidden = await addConversation(h.database.db, account, { groupId: await addGroup(h.database.db, account.accountId) });
      expect((await put(hidden.id, 'close', outsider)).statusCode).toBe(404);
      expect((await row(hidden.id))?.closedAt).toBeNull();
    });
  });

  /** The role fixtures' account as a SendingAccount-like value for addConversation (its own number). */
  let fixtureSending: SendingAccount | undefined;
  async function fixturesAccount(): Promise<SendingAccount> {
    if (fixtureSending) return fixtureSending;
    const number = await addPhoneNumber(h.database.db, fixtures.accountId);
    fixtureSending = { accountId: fixtures.accountId, adminId: fixtures.users.Administrator, numberId: number.id, number: number.number };
    return fixtureSending;
  }

  describe('assign a group', () => {
    it('gives a conversation to a group and back to none, telling the new and the old audience', async () => {
      const member = await addMember(h.database.db, account.accountId, 'Sender');
      const groupId = await addGroup(h.database.db, account.accountId, [member], 'Billing');
      const conversation = await addConversation(h.database.db, account);

      const given = await put(conversation.id, 'assigngroup', admin, { group: { id: groupId } });
      expect(given.statusCode, given.body).toBe(200);
      expect(given.data?.group).toEqual({ id: groupId, name: 'Billing' });
      expect((await row(conversation.id))?.groupId).toBe(groupId);
      // The same again changes nothing.
      expect((await put(conversation.id, 'assigngroup', admin, { group: { id: groupId } })).statusCode).toBe(200);
      let events = await eventsOf('conversationUpdated', conversation.id);
      // To the group's audience, and to the whole account that saw it before.
      expect(events.map((e) => e.group_id)).toEqual([groupId, null]);
      expect(events[0]?.data.conversation.group).toEqual({ id: groupId, name: 'Billing' });

      const taken = await put(conversation.id, 'assigngroup', h.tokenFor(member), { group: null });
      expect(taken.statusCode, taken.body).toBe(200);
      expect(taken.data).not.toHaveProperty('group');
      events = await eventsOf('conversationUpdated', conversation.id);
      expect(events.map((e) => e.group_id)).toEqual([groupId, null, null, groupId]);
    });

    it('refuses another account’s group (404), bad input (400) and Read Only (403), changing nothing', async () => {
      const conversation = await addConversation(h.database.db, account);
      const other = await sendingAccount(h.database.db);
      const theirGroup = await addGroup(h.database.db, other.accountId);
      const refused = await put(conversation.id, 'assigngroup', admin, { group: { id: theirGroup } });
      expect(refused.statusCode).toBe(404);
      expect(refused.body).toContain('The group was not found.');
      for (const body of [{}, { group: { id: 'nope' } }, { group: 'x' }]) {
        const res = await put(conversation.id, 'assigngroup', admin, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
      }
      expect((await put(conversation.id, 'assigngroup', admin, { group: { id: 'nope' } })).body).toContain('Choose a group');
      const readOnly = h.tokenFor(await addMember(h.database.db, account.accountId, 'ReadOnly'));
      const mine = await addGroup(h.database.db, account.accountId);
      expect((await put(conversation.id, 'assigngroup', readOnly, { group: { id: mine } })).statusCode).toBe(403);
      const theirs = await addConversation(h.database.db, other);
      expect((await put(theirs.id, 'assigngroup', admin, { group: { id: mine } })).statusCode).toBe(404);
      expect((await row(conversation.id))?.groupId).toBeNull();
      expect((await row(theirs.id))?.groupId).toBeNull();
      expect(await eventsOf('conversationUpdated', conversation.id)).toEqual([]);
    });
  });

  describe('mark read', () => {
    it('marks every unread message read, then the last incoming or failed one unread (conversationRead each time)', async () => {
      const conversation = await addConversation(h.database.db, account);
      await addMessage(h.database.db, account, conversation, { createdAt: new Date(Date.now() - 3000) });
      await addMessage(h.database.db, account, conversation, { createdAt: new Date(Date.now() - 2000) });
      const failed = await addMessage(h.database.db, account, conversation, { direction: 'outbound', status: 'undelivered', createdAt: new Date(Date.now() - 1000) });
      const sender = h.tokenFor(await addMember(h.database.db, account.accountId, 'Sender'));

      const read = await put(conversation.id, 'read', sender, { read: true });
      expect(read.statusCode, read.body).toBe(200);
      expect(read.data?.unread).toEqual([]);
      const rows = await h.database.db.select().from(messages).where(eq(messages.conversationId, conversation.id));
      expect(rows.every((m) => m.readAt !== null)).toBe(true);
      // Already read: nothing changes, no second event.
      expect((await put(conversation.id, 'read', sender, { read: true })).statusCode).toBe(200);

      const unread = await put(conversation.id, 'read', sender, { read: false });
      expect(unread.data?.unread).toEqual([failed.id]);
      const events = await eventsOf('conversationRead', conversation.id);
      expect(events.map((e) => e.data.conversation.unread)).toEqual([[], [failed.id]]);

      const onlyIncoming = await addConversation(h.database.db, account);
      await addMessage(h.database.db, account, onlyIncoming, { readAt: new Date(Date.now() - 5000), createdAt: new Date(Date.now() - 5000) });
      const newestIn = await addMessage(h.database.db, account, onlyIncoming, { readAt: new Date() });
      await addMessage(h.database.db, account, onlyIncoming, { direction: 'outbound', status: 'delivered' });
      expect((await put(onlyIncoming.id, 'read', sender, { read: false })).data?.unread).toEqual([newestIn.id]);
    });

    it('refuses to mark unread what has nothing that can be, bad input, Read Only and others’ conversations', async () => {
      const quiet = await addConversation(h.database.db, account);
      await addMessage(h.database.db, account, quiet, { direction: 'outbound', status: 'delivered' });
      const nothing = await put(quiet.id, 'read', admin, { read: false });
      expect(nothing.statusCode).toBe(400);
      expect(nothing.body).toContain(CONVERSATION_NOTHING_TO_MARK_UNREAD_MESSAGE);
      expect((await put(quiet.id, 'read', admin, { read: 'yes' })).statusCode).toBe(400);
      expect((await put(quiet.id, 'read', admin, {})).statusCode).toBe(400);

      const conversation = await addConversation(h.database.db, account);
      const incoming = await addMessage(h.database.db, account, conversation);
      const readOnly = h.tokenFor(await addMember(h.database.db, account.accountId, 'ReadOnly'));
      expect((await put(conversation.id, 'read', readOnly, { read: true })).statusCode).toBe(403);
      const other = await sendingAccount(h.database.db);
      const theirs = await addConversation(h.database.db, other);
      const theirMessage = await addMessage(h.database.db, other, theirs);
      expect((await put(theirs.id, 'read', admin, { read: true })).statusCode).toBe(404);
      const [mine, their] = await Promise.all(
        [incoming.id, theirMessage.id].map(async (id) => (await h.database.db.select().from(messages).where(eq(messages.id, id)))[0]),
      );
      expect(mine?.readAt).toBeNull();
      expect(their?.readAt).toBeNull();
      expect(await eventsOf('conversationRead', conversation.id)).toEqual([]);
    });
  });
});
