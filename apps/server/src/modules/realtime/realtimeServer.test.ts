import { randomUUID } from 'node:crypto';
import { DEPLOYMENT_SIMULATOR } from '../carriers/registry.js';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboundMessage } from '../carriers/carrier.js';
import { accountMembers, contactGroups, groupPhoneNumbers, groupUsers } from '../../platform/db/schema/index.js';
import { publishEvent } from '../../platform/events/outbox.js';
import { publishEventBatches } from '../messaging/conversations.js';
import { receiveInbound } from '../messaging/inbound.js';
import { queryRows } from '../../platform/db/client.js';
import { silentLogger } from '../../test/logger.js';
import { addPhoneNumber, sendingAccount, uniqueSendingTestNumber } from '../../test/sendingFixtures.js';
import { devToken } from '../identity/authenticator.js';
import { testDatabaseKinds } from '../../test/databases.js';
import { startTestServer, type TestServer } from '../../test/server.js';
import { connectClient, type ConnectedClient } from '../../test/socket.js';
import { closeAccount, createAccount, createUser } from '../../test/factories.js';
import { eventRooms } from './realtimeServer.js';
import { ACCESS_CHANGED_EVENT } from '@parley/shared';
import { createGroup, updateGroup } from '../groups/groupManager.js';
import { removeUser } from '../accounts/memberManager.js';

async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.each(testDatabaseKinds)('realtime on %s', (kind) => {
  let server: TestServer;
  const clients: ConnectedClient[] = [];
  beforeAll(async () => {
    server = await startTestServer(kind, { DEV_AUTH: 'true', SERVICES: 'web,worker' });
  });
  afterAll(async () => {
    for (const c of clients) c.socket.close();
    await server.stop();
  });
  const client = async (userId: string, accountId: string): Promise<ConnectedClient> => {
    const c = await connectClient(server.baseUrl, { token: devToken(userId, accountId) });
    clients.push(c);
    return c;
  };

  it('joins the rooms of its account and user', async () => {
    const userId = randomUUID();
    const accountId = randomUUID();
    const c = await client(userId, accountId);
    expect(c.rooms.sort()).toEqual([`account:${accountId}`, `user:${userId}`].sort());
  });

  it('delivers an account event to that account only, and a user event to that user only', async () => {
    const accountA = randomUUID();
    const accountB = randomUUID();
    const alice = await client(randomUUID(), accountA);
    const amir = await client(randomUUID(), accountA);
    const bob = await client(randomUUID(), accountB);
    await server.database.db.transaction(async (tx) => {
      await publishEvent(tx, { type: 'messageReceived', accountId: accountA, data: { text: 'hello' } });
    });
    await until(() => alice.received.length === 1 && amir.received.length === 1);
    expect(alice.received[0]).toMatchObject({ type: 'messageReceived', accountId: accountA, data: { text: 'hello' } });
    const aliceId = alice.rooms.find((r) => r.startsWith('user:'))?.slice(5) ?? '';
    await publishEvent(server.database.db, { type: 'notice', userId: aliceId, data: {} });
    await until(() => alice.received.length === 2);
    await new Promise((r) => setTimeout(r, 300));
    expect(amir.received).toHaveLength(1);
    expect(bob.received).toHaveLength(0);
  });

  it("emits a campaign row's status events in order, several to a frame, to that account only", async () => {
    const accountA = randomUUID();
    const alice = await client(randomUUID(), accountA);
    const bob = await client(randomUUID(), randomUUID());
    const statuses = Array.from({ length: 120 }, (_, n) => ({ type: 'messageStatus', accountId: accountA, data: { n } }));
    await server.database.db.transaction(async (tx) => {
      await publishEventBatches(tx, statuses);
    });
    const [rows] = await queryRows<{ n: number }>(server.database.db, sql`select count(*)::int as n from events where account_id = ${accountA}`);
    expect(rows?.n).toBe(1);
    await until(() => alice.received.length === 120);
    expect(alice.received.map((e) => (e.data as { n: number }).n)).toEqual(statuses.map((e) => e.data.n));
    expect(alice.received.every((e) => e.type === 'messageStatus' && e.accountId === accountA)).toBe(true);
    expect(new Set(alice.received.map((e) => e.id)).size).toBe(120);
    // The bulk lane's events go out a slice (50) to a frame: three frames, not 120.
    expect(alice.frames).toEqual([50, 50, 20]);
    await new Promise((r) => setTimeout(r, 300));
    expect(bob.received).toHaveLength(0);
  });

  it('emits an incoming message, of the interactive lane, in a frame of its own', async () => {
    const accountA = randomUUID();
    const alice = await client(randomUUID(), accountA);
    await publishEvent(server.database.db, { type: 'messageReceived', accountId: accountA, data: { text: 'one' } });
    await publishEvent(server.database.db, { type: 'messageReceived', accountId: accountA, data: { text: 'two' } });
    await until(() => alice.received.length === 2);
    expect(alice.received.map((e) => (e.data as { text: string }).text)).toEqual(['one', 'two']);
    expect(alice.frames).toEqual([1, 1]);
  });

  describe('inbox routing', () => {
    const log = silentLogger();
    const inbound = (to: string, from: string): InboundMessage => ({
      carrierMessageId: randomUUID(),
      from,
      to,
      text: 'Is anyone there?',
      media: [],
      receivedAt: new Date(),
    });
    const typesOf = (c: ConnectedClient) => c.received.map((e) => e.type);
    const member = async (accountId: string, role: 'Sender' | 'Administrator') => {
      const user = await createUser(server.database.db);
      await server.database.db.insert(accountMembers).values({ accountId, userId: user.id, role });
      return user.id;
    };

    it("delivers an inbound message to the sockets of its account and not another account's", async () => {
      const a = await sendingAccount(server.database.db);
      const b = await sendingAccount(server.database.db);
      const adminA = await client(a.adminId, a.accountId);
      const senderA = await client(await member(a.accountId, 'Sender'), a.accountId);
      const adminB = await client(b.adminId, b.accountId);
      expect(adminA.rooms.sort()).toEqual([`account:${a.accountId}`, `account:${a.accountId}:all`, `user:${a.adminId}`].sort());

      const received = await receiveInbound(server.database, DEPLOYMENT_SIMULATOR, inbound(a.number, uniqueSendingTestNumber()), log);
      if (received.outcome !== 'received') throw new Error(received.outcome);
      await until(() => typesOf(adminA).includes('messageReceived') && typesOf(senderA).includes('messageReceived'));
      const event = adminA.received.find((e) => e.type === 'messageReceived');
      expect(event).toMatchObject({ accountId: a.accountId, groupId: null, data: { message: { id: received.message.id } } });
      expect(typesOf(senderA)).toEqual(expect.arrayContaining(['contactCreated', 'conversationStarted', 'messageReceived']));
      await new Promise((r) => setTimeout(r, 300));
      expect(adminB.received).toEqual([]);
    });

    it("delivers a group's conversation to the group's users and the administrators only; subscribe picks up a new member", async () => {
      const a = await sendingAccount(server.database.db);
      const inGroup = await member(a.accountId, 'Sender');
      const outsideId = await member(a.accountId, 'Sender');
      const groupId = randomUUID();
      await server.database.db.insert(contactGroups).values({ id: groupId, accountId: a.accountId, name: 'Night shift' });
      await server.database.db.insert(groupUsers).values({ groupId, userId: inGroup });
      const number = await addPhoneNumber(server.database.db, a.accountId);
      await server.database.db.insert(groupPhoneNumbers).values({ groupId, phoneNumberId: number.id });

      const admin = await client(a.adminId, a.accountId);
      const groupMember = await client(inGroup, a.accountId);
      const outsider = await client(outsideId, a.accountId);
      expect(groupMember.rooms).toContain(`group:${groupId}`);
      expect(outsider.rooms.sort()).toEqual([`account:${a.accountId}`, `user:${outsideId}`].sort());

      const first = await receiveInbound(server.database, DEPLOYMENT_SIMULATOR, inbound(number.number, uniqueSendingTestNumber()), log);
      if (first.outcome !== 'received') throw new Error(first.outcome);
      await until(() => typesOf(admin).includes('messageReceived') && typesOf(groupMember).includes('messageReceived'));
      expect(groupMember.received.find((e) => e.type === 'messageReceived')?.groupId).toBe(groupId);
      expect(typesOf(groupMember)).toContain('conversationStarted');
      // The contact is the account's (contactCreated reaches everyone); its conversation is the group's.
      await until(() => typesOf(outsider).includes('contactCreated'));
      await new Promise((r) => setTimeout(r, 300));
      expect(typesOf(outsider)).toEqual(['contactCreated']);

      // Added to the group: a subscribe re-evaluates the rooms, and the group's events follow.
      await server.database.db.insert(groupUsers).values({ groupId, userId: outsideId });
      const answer = await outsider.socket.emitWithAck('subscribe', { accountId: a.accountId });
      expect(answer).toEqual({ ok: true, rooms: [`user:${outsideId}`, `account:${a.accountId}`, `group:${groupId}`] });
      await receiveInbound(server.database, DEPLOYMENT_SIMULATOR, inbound(number.number, uniqueSendingTestNumber()), log);
      await until(() => typesOf(outsider).includes('messageReceived'));

      // Taken out again: the group's room is left.
      await server.database.db.delete(groupUsers).where(and(eq(groupUsers.groupId, groupId), eq(groupUsers.userId, outsideId)));
      expect(await outsider.socket.emitWithAck('subscribe', { accountId: a.accountId })).toEqual({
        ok: true,
        rooms: [`user:${outsideId}`, `account:${a.accountId}`],
      });
      const seen = outsider.received.length;
      await receiveInbound(server.database, DEPLOYMENT_SIMULATOR, inbound(number.number, uniqueSendingTestNumber()), log);
      await until(() => admin.received.filter((e) => e.type === 'messageReceived').length === 3);
      await new Promise((r) => setTimeout(r, 300));
      expect(outsider.received.slice(seen).map((e) => e.type)).toEqual(['contactCreated']);
    });
    it('moves a member to the rooms of their new group, and out of the account when removed, without a reconnect', async () => {
      const a = await sendingAccount(server.database.db);
      const userId = await member(a.accountId, 'Sender');
      const number = await addPhoneNumber(server.database.db, a.accountId);
      const { group } = await createGroup(server.database.db, a.accountId, { name: 'Day shift', users: [], phoneNumbers: [number.id] });
      const admin = await client(a.adminId, a.accountId);
      // A token that names no account of the user's, as a real sign-in: membership alone admits it.
      const sender = await client(userId, randomUUID());
      expect(await sender.socket.emitWithAck('subscribe', { accountId: a.accountId })).toEqual({
        ok: true,
        rooms: [`user:${userId}`, `account:${a.accountId}`],
      });

      await updateGroup(server.database.db, a.accountId, group.id, { name: 'Day shift', users: [userId] });
      await until(() => typesOf(sender).includes(ACCESS_CHANGED_EVENT));
      expect(sender.received.find((e) => e.type === ACCESS_CHANGED_EVENT)).toMatchObject({ userId, data: { accountId: a.accountId } });
      // Only the user whose access changed hears of it.
      expect(typesOf(admin)).not.toContain(ACCESS_CHANGED_EVENT);
      await receiveInbound(server.database, DEPLOYMENT_SIMULATOR, inbound(number.number, uniqueSendingTestNumber()), log);
      await until(() => typesOf(sender).includes('messageReceived'));

      // Removed from the account: the socket leaves every room of it.
      await removeUser(server.database.db, a.accountId, userId);
      await until(() => typesOf(sender).filter((t) => t === ACCESS_CHANGED_EVENT).length === 2);
      const seen = sender.received.length;
      await receiveInbound(server.database, DEPLOYMENT_SIMULATOR, inbound(number.number, uniqueSendingTestNumber()), log);
      await until(() => typesOf(admin).filter((t) => t === 'messageReceived').length === 2);
      await new Promise((r) => setTimeout(r, 300));
      expect(sender.received.slice(seen)).toEqual([]);
    });
  });

  it('refuses a connection without a valid token', async () => {
    await expect(connectClient(server.baseUrl, {})).rejects.toThrow('unauthorized');
    await expect(connectClient(server.baseUrl, { token: 'dev.not-a-uuid.x' })).rejects.toThrow('unauthorized');
  });

  it('subscribes a user to an account of which the database says it is a member', async () => {
    const user = await createUser(server.database.db);
    const member = await createAccount(server.database.db, { [user.id]: 'ReadOnly' });
    const c = await client(user.id, randomUUID());
    expect(await c.socket.emitWithAck('subscribe', { accountId: member.id })).toEqual({
      ok: true,
      rooms: [`user:${user.id}`, `account:${member.id}`],
    });
    await publishEvent(server.database.db, { type: 'contactCreated', accountId: member.id, data: {} });
    await until(() => c.received.length === 1);
    await closeAccount(server.database.db, member.id);
    expect(await c.socket.emitWithAck('subscribe', { accountId: member.id })).toEqual({
      ok: false,
      error: 'not a member of that account',
    });
  });

  it('will not subscribe a socket to an account its principal is not in', async () => {
    const own = randomUUID();
    const c = await client(randomUUID(), own);
    const answer = await c.socket.emitWithAck('subscribe', { accountId: randomUUID() });
    expect(answer).toEqual({ ok: false, error: 'not a member of that account' });
    expect(await c.socket.emitWithAck('subscribe', { accountId: own })).toMatchObject({ ok: true });
  });
});

describe.runIf(testDatabaseKinds.includes('postgres'))('realtime when the notification connection drops', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('postgres', { DEV_AUTH: 'true', SERVICES: 'web' });
  });
  afterAll(async () => {
    await server.stop();
  });

  it('disconnects its clients once it is back, so they reconnect and fetch what they missed; then goes on', async () => {
    const accountId = randomUUID();
    const before = await connectClient(server.baseUrl, { token: devToken(randomUUID(), accountId) });
    let disconnected = false;
    before.socket.on('disconnect', () => {
      disconnected = true;
    });
    const database = server.database;
    if (database.kind !== 'postgres') throw new Error('postgres only');
    await database.pool.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and query like 'LISTEN %parley_outbox%'`,
    );
    // The listener reconnects after a pause of a second.
    await until(() => disconnected, 8000);
    const after = await connectClient(server.baseUrl, { token: devToken(randomUUID(), accountId) });
    await publishEvent(database.db, { type: 'messageReceived', accountId, data: { text: 'after' } });
    await until(() => after.received.length > 0);
    // Once: the listener came back as one connection, not one per error the drop raised.
    await new Promise((r) => setTimeout(r, 300));
    expect(after.received).toHaveLength(1);
    expect(after.received[0]).toMatchObject({ type: 'messageReceived', data: { text: 'after' } });
    after.socket.close();
  });
});

describe('realtime without the development sign-in', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite', { SERVICES: 'web' });
  });
  afterAll(async () => {
    await server.stop();
  });

  it('refuses development tokens when DEV_AUTH is off', async () => {
    await expect(
      connectClient(server.baseUrl, { token: devToken(randomUUID(), randomUUID()) }),
    ).rejects.toThrow('unauthorized');
  });
});

describe('eventRooms', () => {
  const accountId = randomUUID();
  const groupId = randomUUID();
  const userId = randomUUID();
  it("sends a group's event to the group and the account's administrators, any other to the whole account", () => {
    expect(eventRooms({ accountId, groupId, userId: null })).toEqual([`group:${groupId}`, `account:${accountId}:all`]);
    expect(eventRooms({ accountId, groupId: null, userId: null })).toEqual([`account:${accountId}`]);
    expect(eventRooms({ accountId: null, groupId: null, userId })).toEqual([`user:${userId}`]);
    expect(eventRooms({ accountId, groupId: null, userId })).toEqual([`account:${accountId}`, `user:${userId}`]);
  });
});
