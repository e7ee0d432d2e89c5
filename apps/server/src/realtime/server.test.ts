import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishEvent } from '../events/outbox.js';
import { devToken } from '../identity/authenticator.js';
import { testDatabaseKinds } from '../test/databases.js';
import { startTestServer, type TestServer } from '../test/server.js';
import { connectClient, type ConnectedClient } from '../test/socket.js';
import { closeAccount, createAccount, createUser } from '../test/factories.js';

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

  it('refuses a connection without a valid token', async () => {
    await expect(connectClient(server.baseUrl, {})).rejects.toThrow('unauthorized');
    await expect(connectClient(server.baseUrl, { token: 'dev.not-a-uuid.x' })).rejects.toThrow('unauthorized');
  });

  it('subscribes a user to an account of which the database says it is a member', async () => {
    const user = await createUser(server.database.db);
    const member = await createAccount(server.database.db, { [user.id]: 'ReadOnly' });
    const c = await client(user.id, randomUUID());
    expect(await c.socket.emitWithAck('subscribe', { accountId: member.id })).toEqual({ ok: true });
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
    expect(await c.socket.emitWithAck('subscribe', { accountId: own })).toEqual({ ok: true });
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
