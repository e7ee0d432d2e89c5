import { randomUUID } from 'node:crypto';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '@parley/shared';
import { queryRows, type Database } from '../../platform/db/client.js';
import { events } from '../../platform/db/schema/index.js';
import { createSendingSetup, messageRows, queueTestMessages } from './test/dispatcherFixtures.js';
import { addGroup } from '../../test/conversations.js';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.js';
import { eventCountOf, expandEventRows } from './eventPayloads.js';
import { OUTBOX_CHANNEL, parseOutboxPayload, ROW_EVENTS_MAX } from '../../platform/events/outbox.js';
import { messageEventsOfChanged, publishMessageEvents, referencedMessages, snapshotOf } from './messageEvents.js';

describe('referencedMessages', () => {
  it('reads the snapshots of a reference row and refuses anything else', () => {
    const id = randomUUID();
    expect(referencedMessages({ messages: [[id, 'sent', null, null, '2030-01-01T00:00:00.000Z', null]] })).toEqual([
      [id, 'sent', null, null, '2030-01-01T00:00:00.000Z', null],
    ]);
    expect(referencedMessages({ messages: [] })).toEqual([]);
    expect(referencedMessages({ message: { id } })).toBeNull();
    expect(referencedMessages([{ messages: [] }])).toBeNull();
    expect(referencedMessages({ messages: [[id, 'lost', null, null, null, null]] })).toBeNull();
    expect(referencedMessages({ messages: [[id, 'sent', null, null, null]] })).toBeNull();
    expect(referencedMessages({ messages: [[id, 'sent', 7, null, null, null]] })).toBeNull();
    expect(referencedMessages(null)).toBeNull();
  });
});

describe.each(testDatabaseKinds)('message events by reference on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  it('writes a row per group naming its messages in order; read back, each message is as it was at the event', async () => {
    const loose = await createSendingSetup(database.db);
    const grouped = await createSendingSetup(database.db, { accountId: loose.accountId });
    const groupId = await addGroup(database.db, loose.accountId);
    await database.db.execute(sql`update conversations set group_id = ${groupId} where id = ${grouped.conversationId}`);
    const [a1, a2] = await queueTestMessages(database.db, loose, { count: 2 });
    const [b1] = await queueTestMessages(database.db, grouped, { count: 1 });
    if (a1 === undefined || a2 === undefined || b1 === undefined) throw new Error('three messages expected');
    const at = new Date('2030-05-06T07:08:09.000Z');
    await database.db.execute(sql`update messages set status = 'sent', sent_at = ${at.toISOString()}::timestamptz,
                                    status_at = ${at.toISOString()}::timestamptz where id = ${a1}`);

    await database.db.transaction(async (tx) => {
      await publishMessageEvents(tx, 'messageStatus', await messageRows(tx, [a1, b1, a2]));
    });
    const rows = await database.db.select().from(events).where(eq(events.accountId, loose.accountId)).orderBy(asc(events.id));
    expect(rows.map((r) => [r.type, r.groupId, r.lane, r.dispatchedAt === null, referencedMessages(r.data)?.map(([id]) => id)])).toEqual([
      ['messageStatus', null, 1, false, [a1, a2]],
      ['messageStatus', groupId, 1, false, [b1]],
    ]);

    // The message moves on; the event still tells the step it recorded.
    await database.db.execute(sql`update messages set status = 'undelivered', error_code = '30003', error_description = 'Unreachable',
                                    status_at = now() where id = ${a1}`);
    const payloads = await expandEventRows(database.db, rows);
    const first = rows[0]?.id ?? 0;
    const second = rows[1]?.id ?? 0;
    expect(payloads.map((p) => [p.id, p.type, p.groupId, (p.data as { message: Message }).message.id])).toEqual([
      [`${String(first)}.0`, 'messageStatus', null, a1],
      [`${String(first)}.1`, 'messageStatus', null, a2],
      [`${String(second)}.0`, 'messageStatus', groupId, b1],
    ]);
    const sent = (payloads[0]?.data as { message: Message }).message;
    expect(sent).toMatchObject({ status: 'sent', sent: { at: at.toISOString() }, updated: { at: at.toISOString() } });
    // Absent values are left out (docs/api.md): no error yet.
    expect(sent).not.toHaveProperty('error');
    expect(sent.conversation.id).toBe(loose.conversationId);
    expect((payloads[1]?.data as { message: Message }).message).toMatchObject({ status: 'queued' });
    expect((payloads[1]?.data as { message: Message }).message).not.toHaveProperty('sent');
    // A later event of the same message tells the later step.
    await database.db.transaction(async (tx) => {
      await publishMessageEvents(tx, 'messageStatus', await messageRows(tx, [a1]));
    });
    const later = await database.db.select().from(events).where(eq(events.accountId, loose.accountId)).orderBy(asc(events.id));
    const [undelivered] = await expandEventRows(database.db, later.slice(2));
    expect((undelivered?.data as { message: Message }).message).toMatchObject({
      status: 'undelivered',
      error: { code: '30003', description: 'Unreachable' },
    });
  });

  it('names at most ROW_EVENTS_MAX messages a row, in order across rows', async () => {
    const s = await createSendingSetup(database.db);
    const ids = await queueTestMessages(database.db, s, { count: ROW_EVENTS_MAX + 10 });
    await database.db.transaction(async (tx) => {
      await publishMessageEvents(tx, 'messageSent', await messageRows(tx, ids), null);
    });
    const rows = await database.db.select().from(events).where(eq(events.accountId, s.accountId)).orderBy(asc(events.id));
    expect(rows.map((r) => referencedMessages(r.data)?.length)).toEqual([ROW_EVENTS_MAX, 10]);
    expect(rows.map(eventCountOf)).toEqual([ROW_EVENTS_MAX, 10]);
    const payloads = await expandEventRows(database.db, rows);
    expect(payloads.map((p) => (p.data as { message: Message }).message.id)).toEqual(ids);
  });

  it("leaves out a message that is gone or another account's, and reads rows that carry their data as they are", async () => {
    const mine = await createSendingSetup(database.db);
    const theirs = await createSendingSetup(database.db);
    const [own] = await queueTestMessages(database.db, mine, { count: 1 });
    const [foreign] = await queueTestMessages(database.db, theirs, { count: 1 });
    const snapshot = (id: string | undefined) => [id, 'queued', null, null, null, null];
    const [reference, plain] = await database.db
      .insert(events)
      .values([
        { type: 'messageSent', accountId: mine.accountId, lane: 1, data: { messages: [snapshot(foreign), snapshot(randomUUID()), snapshot(own)] } },
        { type: 'messageSent', accountId: mine.accountId, lane: 1, data: { message: { id: 'as written' } } },
      ])
      .returning();
    if (reference === undefined || plain === undefined) throw new Error('two rows expected');
    const payloads = await expandEventRows(database.db, [reference, plain]);
    expect(payloads.map((p) => [p.id, (p.data as { message: { id: string } }).message.id])).toEqual([
      [`${String(reference.id)}.2`, own],
      [String(plain.id), 'as written'],
    ]);
  });

  it("writes a statement's own events as publishMessageEvents would, and announces them only when it commits", async () => {
    const loose = await createSendingSetup(database.db);
    const grouped = await createSendingSetup(database.db, { accountId: loose.accountId });
    const groupId = await addGroup(database.db, loose.accountId);
    await database.db.execute(sql`update conversations set group_id = ${groupId} where id = ${grouped.conversationId}`);
    const looseIds = await queueTestMessages(database.db, loose, { count: ROW_EVENTS_MAX + 5 });
    const [b1] = await queueTestMessages(database.db, grouped, { count: 1 });
    if (b1 === undefined) throw new Error('a grouped message expected');
    const ids = [...looseIds, b1];
    const heard: string[] = [];
    const unlisten = await database.listen(OUTBOX_CHANNEL, (payload) => {
      if (payload !== '') heard.push(payload);
    });
    const send = (tx: Parameters<Parameters<Database['db']['transaction']>[0]>[0]) =>
      queryRows<{ changed: number; announced: number }>(
        tx,
        sql`with changed as (
              update messages set status = 'sent', sent_at = '2030-05-06T07:08:09.123Z', status_at = '2030-05-06T07:08:09.123Z',
                                  error_code = 'x1', error_description = 'Late'
               where id = any(string_to_array(${ids.join(',')}, ',')::uuid[])
              returning id, account_id, conversation_id, status, error_code, error_description, status_at, sent_at
            )${messageEventsOfChanged('messageStatus')}
            select (select count(*)::int from changed) as changed, (select n::int from announced) as announced`,
      );
    try {
      await expect(
        database.db.transaction(async (tx) => {
          await send(tx);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(await database.db.select().from(events).where(eq(events.accountId, loose.accountId))).toEqual([]);

      const [result] = await database.db.transaction((tx) => send(tx));
      expect(result).toEqual({ changed: ids.length, announced: 1 });
      const rows = await database.db.select().from(events).where(eq(events.accountId, loose.accountId)).orderBy(asc(events.id));
      // Rows by group, ROW_EVENTS_MAX at most each (their order is the order the update returned its rows in).
      const shape = rows.map((r) => JSON.stringify([r.type, r.groupId, r.lane, r.dispatchedAt === null, referencedMessages(r.data)?.length]));
      expect(shape.sort()).toEqual(
        [
          ['messageStatus', null, 1, false, ROW_EVENTS_MAX],
          ['messageStatus', null, 1, false, 5],
          ['messageStatus', groupId, 1, false, 1],
        ]
          .map((r) => JSON.stringify(r))
          .sort(),
      );
      // Each snapshot is the one publishMessageEvents takes of the row, times as toISOString writes them.
      const expected = new Map((await messageRows(database.db, ids)).map((row) => [row.id, snapshotOf(row)]));
      const snapshots = rows.flatMap((r) => referencedMessages(r.data) ?? []);
      expect(snapshots.map(([id]) => id).sort()).toEqual([...ids].sort());
      for (const snapshot of snapshots) expect(snapshot).toEqual(expected.get(snapshot[0]));
      expect(snapshots[0]?.[4]).toBe('2030-05-06T07:08:09.123Z');

      const deadline = Date.now() + 5000;
      while (heard.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(heard.every((payload) => payload.startsWith('b:'))).toBe(true);
      expect(heard.flatMap((payload) => parseOutboxPayload(payload)?.ids ?? []).sort((x, y) => x - y)).toEqual(rows.map((r) => r.id));
    } finally {
      await unlisten();
    }
  });
});
