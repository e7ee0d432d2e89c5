import { and, asc, eq, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '../../platform/db/client.js';
import { contacts, conversations, events } from '../../platform/db/schema/index.js';
import { OUTBOX_CHANNEL, parseOutboxPayload } from '../../platform/events/outbox.js';
import { outboxEvents } from '../../test/accounts.js';
import { addGroup } from '../../test/conversations.js';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.js';
import { conversationKey, openConversations, startedEvent, type ConversationWanted } from './conversations.js';
import { createSendingSetup, type SendingSetup } from './test/dispatcherFixtures.js';

async function newContact(database: Database, s: SendingSetup, mobileNumber: string): Promise<string> {
  const id = uuidv7();
  await database.db.insert(contacts).values({ id, accountId: s.accountId, mobileNumber, mobileCountry: 'US' });
  return id;
}

const wantedFor = (s: SendingSetup, contactId: string): ConversationWanted => ({
  contactId,
  phoneNumberId: s.phoneNumberId,
  phoneNumber: s.number,
  groupId: null,
});

describe.each(testDatabaseKinds)('openConversations on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  it('finds the open conversations and opens the missing ones in one call, announcing only those', async () => {
    const s = await createSendingSetup(database.db);
    const fresh = await newContact(database, s, '+12025550143');
    const closedContact = await newContact(database, s, '+12025550144');
    const closedId = uuidv7();
    await database.db.insert(conversations).values({
      id: closedId,
      accountId: s.accountId,
      contactId: closedContact,
      phoneNumberId: s.phoneNumberId,
      closedAt: new Date(),
    });

    const opened = await database.db.transaction((tx) =>
      openConversations(tx, s.accountId, [wantedFor(s, s.contactId), wantedFor(s, fresh), wantedFor(s, closedContact), wantedFor(s, fresh)]),
    );
    expect(opened.size).toBe(3);
    expect(opened.get(conversationKey(s.contactId, s.phoneNumberId))).toEqual({ id: s.conversationId, started: false });
    const freshOne = opened.get(conversationKey(fresh, s.phoneNumberId));
    const reopened = opened.get(conversationKey(closedContact, s.phoneNumberId));
    expect(freshOne?.started).toBe(true);
    // A closed conversation stays history: the contact gets a new one.
    expect(reopened?.started).toBe(true);
    expect(reopened?.id).not.toBe(closedId);

    const rows = await database.db.select().from(conversations).where(eq(conversations.accountId, s.accountId));
    expect(rows).toHaveLength(4);
    const started = await outboxEvents(database.db, 'conversationStarted', s.accountId);
    expect(started.map((e) => (e.data as { conversation: { id: string } }).conversation.id).sort()).toEqual(
      [freshOne?.id, reopened?.id].sort(),
    );

    // Asked again, nothing new opens and nothing is announced.
    const again = await database.db.transaction((tx) => openConversations(tx, s.accountId, [wantedFor(s, fresh)]));
    expect(again.get(conversationKey(fresh, s.phoneNumberId))).toEqual({ id: freshOne?.id, started: false });
    expect(await outboxEvents(database.db, 'conversationStarted', s.accountId)).toHaveLength(2);
  });

  it('writes each opened conversation the conversationStarted event startedEvent describes, in its group, and names it in a NOTIFY', async () => {
    const s = await createSendingSetup(database.db);
    const groupId = await addGroup(database.db, s.accountId);
    const loose = wantedFor(s, await newContact(database, s, '+12025550146'));
    const grouped = { ...wantedFor(s, await newContact(database, s, '+12025550147')), groupId };
    const now = new Date('2030-02-03T04:05:06.789Z');
    const heard: string[] = [];
    const unlisten = await database.listen(OUTBOX_CHANNEL, (payload) => {
      if (payload !== '') heard.push(payload);
    });
    try {
      const opened = await database.db.transaction((tx) => openConversations(tx, s.accountId, [loose, grouped], now));
      const looseId = opened.get(conversationKey(loose.contactId, s.phoneNumberId))?.id;
      const groupedId = opened.get(conversationKey(grouped.contactId, s.phoneNumberId))?.id;
      if (looseId === undefined || groupedId === undefined) throw new Error('both conversations expected');

      const rows = await database.db
        .select()
        .from(events)
        .where(and(eq(events.accountId, s.accountId), eq(events.type, 'conversationStarted')))
        .orderBy(asc(events.id));
      // One row a group, in the order asked, each holding the data startedEvent builds.
      expect(rows.map((r) => [r.groupId, r.lane, r.data])).toEqual([
        [null, 0, startedEvent(s.accountId, looseId, loose, now).data],
        [groupId, 0, startedEvent(s.accountId, groupedId, grouped, now).data],
      ]);
      const deadline = Date.now() + 5000;
      while (heard.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(heard.flatMap((payload) => parseOutboxPayload(payload)?.ids ?? [])).toEqual(rows.map((r) => r.id));
    } finally {
      await unlisten();
    }
  });

  it.skipIf(kind !== 'postgres')('answers the conversation another transaction opened meanwhile instead of a second one', async () => {
    const s = await createSendingSetup(database.db);
    const contactId = await newContact(database, s, '+12025550145');
    let firstOpened: () => void = () => undefined;
    const opening = new Promise<void>((resolve) => {
      firstOpened = resolve;
    });
    let letFirstCommit: () => void = () => undefined;
    const commit = new Promise<void>((resolve) => {
      letFirstCommit = resolve;
    });
    const first = database.db.transaction(async (tx) => {
      const result = await openConversations(tx, s.accountId, [wantedFor(s, contactId)]);
      firstOpened();
      await commit;
      return result;
    });
    await opening;
    // The second waits on the first's uncommitted row (ON CONFLICT), then finds it.
    const second = database.db.transaction((tx) => openConversations(tx, s.accountId, [wantedFor(s, contactId)]));
    await new Promise((resolve) => setTimeout(resolve, 200));
    letFirstCommit();
    const [a, b] = await Promise.all([first, second]);
    const key = conversationKey(contactId, s.phoneNumberId);
    expect(a.get(key)?.started).toBe(true);
    expect(b.get(key)).toEqual({ id: a.get(key)?.id, started: false });
    const open = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from conversations where contact_id = ${contactId} and closed_at is null`,
    );
    expect(open).toEqual([{ n: 1 }]);
  });
});
