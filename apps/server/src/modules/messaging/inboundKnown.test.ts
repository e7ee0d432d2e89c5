import { randomUUID } from 'node:crypto';
import { DEPLOYMENT_SIMULATOR } from '../carriers/registry.js';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { InboundMessage } from '../carriers/carrier.js';
import { queryRows, type Database, type Db } from '../../platform/db/client.js';
import { autoResponders, contactGroups, contacts, conversations, groupPhoneNumbers, messages } from '../../platform/db/schema/index.js';
import { OUTBOX_CHANNEL, parseOutboxPayload } from '../../platform/events/outbox.js';
import { presentMessage } from './messagePresenter.js';
import { testDatabaseKinds } from '../../test/databases.js';
import { silentLogger } from '../../test/logger.js';
import { useLedgerCheckedDatabase } from '../../test/ledgerCheckedDatabase.js';
import { createSendingSetup, testNumber, type SendingSetup } from './test/dispatcherFixtures.js';
import { receiveInbound } from './inbound.js';
import { receiveFromKnownContact } from './inboundKnown.js';

describe.each(testDatabaseKinds)('incoming messages from known contacts on %s', (kind) => {
  let database: Database;
  const accounts: string[] = [];
  const log = silentLogger();

  useLedgerCheckedDatabase(kind, (opened) => (database = opened), accounts);

  async function setup(): Promise<SendingSetup> {
    const made = await createSendingSetup(database.db, { carrier: 'simulator' });
    accounts.push(made.accountId);
    return made;
  }

  const incoming = (s: SendingSetup, text: string, from = s.contactNumber): InboundMessage => ({
    carrierMessageId: randomUUID(),
    from,
    to: s.number,
    text,
    media: [],
    receivedAt: new Date(Date.now() - 1000),
  });

  interface EventRow extends Record<string, unknown> {
    id: number;
    type: string;
    group_id: string | null;
    user_id: string | null;
    lane: number;
    data: unknown;
  }
  const eventsOf = (accountId: string): Promise<EventRow[]> =>
    queryRows<EventRow>(database.db, sql`select id::int as id, type, group_id, user_id, lane, data from events where account_id = ${accountId} order by id`);

  const storedMessage = async (id: string) => (await database.db.select().from(messages).where(sql`${messages.id} = ${id}`))[0];
  const conversationOf = async (id: string) => (await database.db.select().from(conversations).where(sql`${conversations.id} = ${id}`))[0];
  const messageCount = async (accountId: string): Promise<number> =>
    (await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from messages where account_id = ${accountId}`))[0]?.n ?? -1;

  /** The database, with `between` run once right after the first statement (the look-up), as another writer would. */
  function racing(between: (db: Db) => Promise<unknown>): Database {
    let first = true;
    const db = new Proxy(database.db, {
      get(target, property) {
        if (property === 'execute') {
          return async (...args: Parameters<Db['execute']>) => {
            const result = await target.execute(...args);
            if (first) {
              first = false;
              await between(target);
            }
            return result;
          };
        }
        const value: unknown = Reflect.get(target, property);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    return { ...database, db };
  }

  it('writes the message exactly as it answers it, touches the open conversation and keeps the number for the contact', async () => {
    const s = await setup();
    const message = incoming(s, 'Running late, see you at 10');
    const now = new Date();
    const known = await receiveFromKnownContact(database, DEPLOYMENT_SIMULATOR, message, now);
    expect(known?.conversationStarted).toBe(false);
    const stored = await storedMessage(known?.message.id ?? '');
    expect(known?.message).toEqual(stored);
    expect(stored).toMatchObject({
      conversationId: s.conversationId,
      contactId: s.contactId,
      phoneNumberId: s.phoneNumberId,
      direction: 'inbound',
      fromNumber: s.contactNumber,
      toNumber: s.number,
      body: 'Running late, see you at 10',
      status: 'received',
      carrier: 'simulator',
      carrierMessageId: message.carrierMessageId,
      statusAt: message.receivedAt,
      createdAt: now,
      price: '0.0000',
    });
    expect(await conversationOf(s.conversationId)).toMatchObject({ lastMessageId: stored?.id, lastMessageAt: now, updatedAt: now });
    const [contact] = await database.db.select().from(contacts).where(sql`${contacts.id} = ${s.contactId}`);
    expect(contact?.senderPhoneNumberId).toBe(s.phoneNumberId);
    // The event carries the message as the API presents the stored row.
    if (stored === undefined) throw new Error('the message was not stored');
    expect(await eventsOf(s.accountId)).toEqual([
      { id: expect.any(Number) as unknown, type: 'messageReceived', group_id: null, user_id: null, lane: 0, data: { message: presentMessage(stored) } },
    ]);
  });

  it('opens a conversation in the group holding the number, announcing it before the message, and NOTIFYs both', async () => {
    const s = await setup();
    const groupId = randomUUID();
    await database.db.insert(contactGroups).values({ id: groupId, accountId: s.accountId, name: 'Front desk' });
    await database.db.insert(groupPhoneNumbers).values({ groupId, phoneNumberId: s.phoneNumberId });
    const from = testNumber();
    const contactId = randomUUID();
    await database.db.insert(contacts).values({ id: contactId, accountId: s.accountId, mobileNumber: from, mobileCountry: 'US' });

    const payloads: string[] = [];
    const unlisten = await database.listen(OUTBOX_CHANNEL, (payload) => {
      if (payload !== '') payloads.push(payload);
    });
    try {
      const known = await receiveFromKnownContact(database, DEPLOYMENT_SIMULATOR, incoming(s, 'Hello?', from), new Date());
      expect(known?.conversationStarted).toBe(true);
      const conversationId = known?.message.conversationId ?? '';
      expect(await conversationOf(conversationId)).toMatchObject({ contactId, phoneNumberId: s.phoneNumberId, groupId, lastMessageId: known?.message.id, closedAt: null });
      const events = await eventsOf(s.accountId);
      expect(events.map((e) => [e.type, e.group_id])).toEqual([
        ['conversationStarted', groupId],
        ['messageReceived', groupId],
      ]);
      expect(events[0]?.data).toEqual({
        conversation: { id: conversationId, contact: { id: contactId }, phoneNumber: { id: s.phoneNumberId, number: s.number }, group: { id: groupId }, created: { at: known?.message.createdAt.toISOString() } },
      });
      await expect.poll(() => payloads.flatMap((p) => parseOutboxPayload(p)?.ids ?? [])).toEqual(events.map((e) => e.id));
    } finally {
      await unlisten();
    }
  });

  it('leaves to the full path what it does not handle, writing nothing', async () => {
    const s = await setup();
    const now = new Date();
    // A keyword, a number written nationally, a contact not known yet, an unknown number.
    expect(await receiveFromKnownContact(database, DEPLOYMENT_SIMULATOR, incoming(s, 'STOP'), now)).toBeNull();
    expect(await receiveFromKnownContact(database, DEPLOYMENT_SIMULATOR, incoming(s, 'Hi', s.contactNumber.slice(2)), now)).toBeNull();
    expect(await receiveFromKnownContact(database, DEPLOYMENT_SIMULATOR, incoming(s, 'Hi', testNumber()), now)).toBeNull();
    expect(await receiveFromKnownContact(database, DEPLOYMENT_SIMULATOR, { ...incoming(s, 'Hi'), to: testNumber() }, now)).toBeNull();
    // A message stored before (a redelivery).
    const first = incoming(s, 'Once');
    expect(await receiveFromKnownContact(database, DEPLOYMENT_SIMULATOR, first, now)).not.toBeNull();
    expect(await receiveFromKnownContact(database, DEPLOYMENT_SIMULATOR, first, now)).toBeNull();
    // An account with auto responders: they decide what answers.
    await database.db.insert(autoResponders).values({ id: randomUUID(), accountId: s.accountId, match: 'hours', response: 'We open at 9.' });
    expect(await receiveFromKnownContact(database, DEPLOYMENT_SIMULATOR, incoming(s, 'Hi'), now)).toBeNull();
    expect(await messageCount(s.accountId)).toBe(1);
    expect((await eventsOf(s.accountId)).map((e) => e.type)).toEqual(['messageReceived']);
  });

  it('writes nothing when another writer opened the conversation meanwhile; the full path uses theirs', async () => {
    const s = await setup();
    const from = testNumber();
    const contactId = randomUUID();
    await database.db.insert(contacts).values({ id: contactId, accountId: s.accountId, mobileNumber: from, mobileCountry: 'US' });
    const theirs = randomUUID();
    const open = (db: Db) => db.insert(conversations).values({ id: theirs, accountId: s.accountId, contactId, phoneNumberId: s.phoneNumberId });
    expect(await receiveFromKnownContact(racing(open), DEPLOYMENT_SIMULATOR, incoming(s, 'Hi', from), new Date())).toBeNull();
    expect(await messageCount(s.accountId)).toBe(0);
    expect(await eventsOf(s.accountId)).toEqual([]);

    await database.db.delete(conversations).where(sql`${conversations.id} = ${theirs}`);
    const result = await receiveInbound(racing(open), DEPLOYMENT_SIMULATOR, incoming(s, 'Hi again', from), log);
    expect(result).toMatchObject({ outcome: 'received', conversationStarted: false, message: { conversationId: theirs } });
  });

  it('writes nothing when the conversation closed meanwhile; the full path opens a new one', async () => {
    const s = await setup();
    const close = (db: Db) => db.update(conversations).set({ closedAt: new Date() }).where(sql`${conversations.id} = ${s.conversationId}`);
    expect(await receiveFromKnownContact(racing(close), DEPLOYMENT_SIMULATOR, incoming(s, 'Hi'), new Date())).toBeNull();
    expect(await messageCount(s.accountId)).toBe(0);

    await database.db.update(conversations).set({ closedAt: null }).where(sql`${conversations.id} = ${s.conversationId}`);
    const result = await receiveInbound(racing(close), DEPLOYMENT_SIMULATOR, incoming(s, 'Hi again'), log);
    expect(result).toMatchObject({ outcome: 'received', conversationStarted: true });
    if (result.outcome === 'received') expect(result.message.conversationId).not.toBe(s.conversationId);
  });

  it('writes nothing when the same message was stored meanwhile; the full path answers it as a duplicate', async () => {
    const s = await setup();
    const message = incoming(s, 'Twice');
    const other = { ...message };
    const deliver = async () => {
      const result = await receiveInbound(database, DEPLOYMENT_SIMULATOR, other, log);
      if (result.outcome !== 'received') throw new Error('the other delivery was not stored');
      return result.message.id;
    };
    let storedId = '';
    const result = await receiveInbound(
      racing(async () => (storedId = await deliver())),
      DEPLOYMENT_SIMULATOR,
      message,
      log,
    );
    expect(result).toEqual({ outcome: 'duplicate', messageId: storedId });
    expect(await messageCount(s.accountId)).toBe(1);
    expect((await eventsOf(s.accountId)).map((e) => e.type)).toEqual(['messageReceived']);
  });

  it('writes nothing when the contact was removed meanwhile; the full path creates it again', async () => {
    const s = await setup();
    const remove = (db: Db) => db.delete(contacts).where(sql`${contacts.id} = ${s.contactId}`);
    const result = await receiveInbound(racing(remove), DEPLOYMENT_SIMULATOR, incoming(s, 'Hello'), log);
    expect(result).toMatchObject({ outcome: 'received', contactCreated: true, conversationStarted: true });
    if (result.outcome === 'received') expect(result.message.contactId).not.toBe(s.contactId);
  });
});
