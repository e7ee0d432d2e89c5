import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.js';
import { events } from '../db/schema/index.js';
import { publishEventBatches } from '../../modules/messaging/conversations.js';
import { addConversation, addGroup } from '../../test/conversations.js';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.js';
import { sendingAccount, type SendingAccount } from '../../test/sendingFixtures.js';
import { eventPayloads } from './outboxPayload.js';
import { toPayload } from './outboxPayload.js';
import { conversationIdOf, OUTBOX_CHANNEL, parseOutboxPayload, publishEvents, type NewEvent, type NewEventId } from './outbox.js';

describe('conversationIdOf', () => {
  it('reads the conversation of message and conversation events, and nothing else', () => {
    const id = randomUUID();
    expect(conversationIdOf({ message: { id: randomUUID(), conversation: { id } } })).toBe(id);
    expect(conversationIdOf({ conversation: { id, contact: { id: randomUUID() } } })).toBe(id);
    expect(conversationIdOf({ contact: { id } })).toBeNull();
    expect(conversationIdOf({ conversation: { id: 'not-a-uuid' } })).toBeNull();
    expect(conversationIdOf({ message: { conversation: null } })).toBeNull();
    expect(conversationIdOf(null)).toBeNull();
    expect(conversationIdOf('text')).toBeNull();
  });
});

describe.each(testDatabaseKinds)("events' group on %s", (kind) => {
  let database: Database;
  let account: SendingAccount;
  let other: SendingAccount;
  let groupId: string;
  let grouped: string;
  let ungrouped: string;
  let othersGrouped: string;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    account = await sendingAccount(database.db);
    other = await sendingAccount(database.db);
    groupId = await addGroup(database.db, account.accountId);
    grouped = (await addConversation(database.db, account, { groupId })).id;
    ungrouped = (await addConversation(database.db, account)).id;
    othersGrouped = (await addConversation(database.db, other, { groupId: await addGroup(database.db, other.accountId) })).id;
  });
  afterAll(async () => {
    await database.close();
  });

  /** The events as written, each with the group the outbox gave it. */
  const sample = (accountId: string): NewEvent[] => [
    { type: 'messageReceived', accountId, data: { message: { id: randomUUID(), conversation: { id: grouped } } } },
    { type: 'conversationClosed', accountId, data: { conversation: { id: grouped } } },
    { type: 'conversationStarted', accountId, data: { conversation: { id: ungrouped } } },
    { type: 'contactCreated', accountId, data: { contact: { id: randomUUID() } } },
    // Given explicitly: taken as it is (a conversation leaving a group tells the old audience).
    { type: 'conversationUpdated', accountId, data: { conversation: { id: grouped } }, groupId: null },
    { type: 'conversationUpdated', accountId, data: { conversation: { id: ungrouped } }, groupId },
    // Another account's conversation named in this account's event: no group leaks across.
    { type: 'messageSent', accountId, data: { message: { conversation: { id: othersGrouped } } } },
  ];
  const expected = () => [groupId, groupId, null, null, null, groupId, null];

  const written = async (accountId: string) => {
    const rows = await database.db.select().from(events).where(eq(events.accountId, accountId)).orderBy(asc(events.id));
    return rows.map(toPayload);
  };

  it('publishEvents fills in the group of the conversation in the same statement', async () => {
    await database.db.transaction(async (tx) => {
      await publishEvents(tx, sample(account.accountId));
    });
    const payloads = await written(account.accountId);
    expect(payloads.map((p) => p.groupId)).toEqual(expected());
    expect(payloads.map((p) => p.type)).toEqual(sample(account.accountId).map((e) => e.type));
  });

  it('publishEventBatches does the same, keeping the order given', async () => {
    const batchAccount = await sendingAccount(database.db);
    // The same events under another account too: the conversations are not its own, so only explicit groups stay.
    await database.db.transaction(async (tx) => {
      await publishEventBatches(tx, sample(account.accountId).map((e) => ({ ...e, type: `batch.${e.type}` })));
      await publishEventBatches(tx, sample(batchAccount.accountId));
    });
    const payloads = (await written(account.accountId)).filter((p) => p.type.startsWith('batch.'));
    expect(payloads.map((p) => p.groupId)).toEqual(expected());
    expect(payloads.map((p) => p.type)).toEqual(sample(account.accountId).map((e) => `batch.${e.type}`));
    // In another account, only explicit groups stay.
    expect((await written(batchAccount.accountId)).map((p) => p.groupId)).toEqual([null, null, null, null, null, groupId, null]);
  });
  it('publishEventBatches lets events of one type, account, user and group share a row, unless their type is delivered', async () => {
    const shared = await sendingAccount(database.db);
    const groupOf = await addGroup(database.db, shared.accountId);
    const inGroup = (await addConversation(database.db, shared, { groupId: groupOf })).id;
    const loose = (await addConversation(database.db, shared)).id;
    const sent = (n: number, conversation: string, userId: string | null = null): NewEvent => ({
      type: 'messageSent',
      accountId: shared.accountId,
      userId,
      data: { n, message: { conversation: { id: conversation } } },
    });
    const received = (n: number): NewEvent => ({ type: 'messageReceived', accountId: shared.accountId, data: { n, message: { conversation: { id: inGroup } } } });
    const userId = shared.adminId;
    const given: NewEvent[] = [sent(0, inGroup), received(1), sent(2, loose), sent(3, inGroup), received(4), sent(5, loose), sent(6, inGroup, userId), sent(7, inGroup)];
    await database.db.transaction(async (tx) => {
      await publishEventBatches(tx, given);
    });
    const rows = await database.db.select().from(events).where(eq(events.accountId, shared.accountId)).orderBy(asc(events.id));
    // In the order of each row's first event; messageReceived (web push delivers it) a row each.
    expect(rows.map((r) => [r.type, r.groupId, r.userId, Array.isArray(r.data) ? r.data.length : 1])).toEqual([
      ['messageSent', groupOf, null, 3],
      ['messageReceived', groupOf, null, 1],
      ['messageSent', null, null, 2],
      ['messageReceived', groupOf, null, 1],
      ['messageSent', groupOf, userId, 1],
    ]);
    expect(rows.filter((r) => r.dispatchedAt === null).map((r) => r.type)).toEqual(['messageReceived', 'messageReceived']);
    // Read back one by one: each with its row's group and its place in the order given.
    const payloads = rows.flatMap(eventPayloads);
    expect(payloads.map((p) => (p.data as { n: number }).n)).toEqual([0, 3, 7, 1, 2, 5, 4, 6]);
    expect(payloads.map((p) => p.id)).toEqual([
      `${String(rows[0]?.id)}.0`, `${String(rows[0]?.id)}.1`, `${String(rows[0]?.id)}.2`,
      String(rows[1]?.id),
      `${String(rows[2]?.id)}.0`, `${String(rows[2]?.id)}.1`,
      String(rows[3]?.id),
      String(rows[4]?.id),
    ]);
    expect(payloads.map((p) => p.groupId)).toEqual([groupOf, groupOf, groupOf, groupOf, null, null, groupOf, groupOf]);
    expect(payloads.filter((p) => p.type === 'messageReceived').map((p) => (p.data as { n: number }).n)).toEqual([1, 4]);
  });

  it('names what it wrote in NOTIFYs that only a commit delivers, one per lane, small batches and large alike', async () => {
    const heard: string[] = [];
    const unlisten = await database.listen(OUTBOX_CHANNEL, (payload) => {
      if (payload !== '') heard.push(payload);
    });
    try {
      const accountId = (await sendingAccount(database.db)).accountId;
      const small: NewEvent[] = [
        { type: 'messageReceived', accountId, data: {} },
        { type: 'messageStatus', accountId, data: {} },
        { type: 'conversationClosed', accountId, data: {} },
      ];
      const large: NewEvent[] = Array.from({ length: 700 }, (_, i) => ({ type: i % 2 === 0 ? 'messageSent' : 'contactCreated', accountId, data: {} }));
      await expect(
        database.db.transaction(async (tx) => {
          await publishEvents(tx, small);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      const ids = await database.db.transaction(async (tx) => [...(await publishEvents(tx, small)), ...(await publishEvents(tx, large))]);
      expect(ids).toHaveLength(703);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      const deadline = Date.now() + 5000;
      const announced = (): NewEventId[] =>
        heard.flatMap((payload) => {
          const parsed = parseOutboxPayload(payload);
          return parsed === null ? [] : parsed.ids.map((id) => ({ id, lane: parsed.lane }));
        });
      while (announced().length < ids.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const rows = await database.db.select().from(events).where(eq(events.accountId, accountId)).orderBy(asc(events.id));
      expect(rows.map((r) => r.id)).toEqual(ids);
      // Every written event is named once, in its own lane; the rolled-back ones never.
      expect(announced().sort((a, b) => a.id - b.id)).toEqual(rows.map((r) => ({ id: r.id, lane: r.lane })));
    } finally {
      await unlisten();
    }
  });
});
