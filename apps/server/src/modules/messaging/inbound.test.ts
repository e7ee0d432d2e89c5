import { randomUUID } from 'node:crypto';
import { DEPLOYMENT_SIMULATOR } from '../carriers/registry.js';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { optInKeywords, optOutKeywords } from '@parley/shared';
import type { InboundMessage } from '../carriers/carrier.js';
import { sendMessages } from './messageSender.js';
import { queryRows, type Database } from '../../platform/db/client.js';
import { contacts, conversations, contactGroups, groupPhoneNumbers, messages, type MessageRow } from '../../platform/db/schema/index.js';
import { outboxEvents } from '../../test/accounts.js';
import { testDatabaseKinds } from '../../test/databases.js';
import { silentLogger } from '../../test/logger.js';
import { MessageDispatcher } from './dispatcher.js';
import { createSendingSetup, RecordingCarrier, registryOf, testNumber, type SendingSetup } from './test/dispatcherFixtures.js';
import { createMessageHandlers } from './handlers.js';
import { receiveInbound } from './inbound.js';
import { helpReply, KEYWORD_REPLY_EVENT_TYPES, optInConfirmation, optOutConfirmation, supportDetails } from './keywords.js';
import { useLedgerCheckedDatabase } from '../../test/ledgerCheckedDatabase.js';

describe.each(testDatabaseKinds)('inbound messages on %s', (kind) => {
  let database: Database;
  const accounts: string[] = [];
  const log = silentLogger();

  // Whatever a test did, every account's balance is still the sum of its ledger.
  useLedgerCheckedDatabase(kind, (opened) => (database = opened), accounts);

  async function setup(): Promise<SendingSetup> {
    const made = await createSendingSetup(database.db, { carrier: 'simulator' });
    accounts.push(made.accountId);
    return made;
  }

  const incoming = (s: SendingSetup, text: string, from = s.contactNumber, carrierMessageId = randomUUID()): InboundMessage => ({
    carrierMessageId,
    from,
    to: s.number,
    text,
    media: [],
    receivedAt: new Date(),
  });

  const receive = async (message: InboundMessage) => {
    const result = await receiveInbound(database, DEPLOYMENT_SIMULATOR, message, log);
    if (result.outcome !== 'received') throw new Error(`not received: ${result.outcome}`);
    return result;
  };

  const contactByNumber = async (accountId: string, number: string) => {
    const [row] = await database.db
      .select()
      .from(contacts)
      .where(sql`${contacts.accountId} = ${accountId} and ${contacts.mobileNumber} = ${number}`);
    return row;
  };

  /** The automatic replies (outbound messages answering another) of a contact, oldest first. */
  const repliesTo = async (contactId: string): Promise<MessageRow[]> =>
    database.db
      .select()
      .from(messages)
      .where(sql`${messages.contactId} = ${contactId} and ${messages.replyToId} is not null`)
      .orderBy(messages.createdAt, messages.id);

  const support = (s: SendingSetup) =>
    supportDetails(`Sender ${s.accountId.slice(0, 8)}`, { phone: '+14155552671', email: 'support@example.test', website: 'https://example.test' });

  it('creates the contact and its conversation for a new number, and publishes every event', async () => {
    const s = await setup();
    const from = '+447400123456';
    const result = await receive(incoming(s, 'Hello there', from));
    expect(result).toMatchObject({ contactCreated: true, conversationStarted: true, keyword: null });
    const contact = await contactByNumber(s.accountId, from);
    expect(contact).toMatchObject({ mobileCountry: 'GB', valid: true, senderPhoneNumberId: s.phoneNumberId });
    expect(result.message).toMatchObject({
      direction: 'inbound',
      status: 'received',
      fromNumber: from,
      toNumber: s.number,
      body: 'Hello there',
      carrier: 'simulator',
      contactId: contact?.id,
      phoneNumberId: s.phoneNumberId,
      price: '0.0000',
    });
    const [conversation] = await database.db.select().from(conversations).where(sql`${conversations.id} = ${result.message.conversationId}`);
    expect(conversation).toMatchObject({ contactId: contact?.id, phoneNumberId: s.phoneNumberId, groupId: null, lastMessageId: result.message.id });
    expect((await outboxEvents(database.db, 'contactCreated', s.accountId)).length).toBe(1);
    expect(await outboxEvents(database.db, 'conversationStarted', s.accountId)).toEqual([
      { data: { conversation: expect.objectContaining({ id: conversation?.id, contact: { id: contact?.id } }) as unknown } },
    ]);
    expect(await outboxEvents(database.db, 'messageReceived', s.accountId)).toEqual([
      { data: { message: expect.objectContaining({ id: result.message.id, direction: 'inbound', outgoing: false, read: false }) as unknown } },
    ]);
    // Nothing answers a plain message.
    expect(await repliesTo(contact?.id ?? '')).toEqual([]);
  });

  it('uses the contact and open conversation that exist, and opens a new one after a close', async () => {
    const s = await setup();
    const first = await receive(incoming(s, 'One'));
    expect(first).toMatchObject({ contactCreated: false, conversationStarted: false });
    expect(first.message.conversationId).toBe(s.conversationId);
    const second = await receive(incoming(s, 'Two'));
    expect(second.message.conversationId).toBe(s.conversationId);
    const [conversation] = await database.db.select().from(conversations).where(sql`${conversations.id} = ${s.conversationId}`);
    expect(conversation?.lastMessageId).toBe(second.message.id);

    await database.db.execute(sql`update conversations set closed_at = now() where id = ${s.conversationId}`);
    const third = await receive(incoming(s, 'Three'));
    expect(third.conversationStarted).toBe(true);
    expect(third.message.conversationId).not.toBe(s.conversationId);
  });

  it('routes a new conversation to the group holding the number', async () => {
    const s = await setup();
    const groupId = randomUUID();
    await database.db.insert(contactGroups).values({ id: groupId, accountId: s.accountId, name: 'Support' });
    await database.db.insert(groupPhoneNumbers).values({ groupId, phoneNumberId: s.phoneNumberId });
    const result = await receive(incoming(s, 'Hi', testNumber()));
    const [conversation] = await database.db.select().from(conversations).where(sql`${conversations.id} = ${result.message.conversationId}`);
    expect(conversation?.groupId).toBe(groupId);
  });

  it('stores and answers a redelivered message once', async () => {
    const s = await setup();
    const message = incoming(s, 'HELP');
    const first = await receiveInbound(database, DEPLOYMENT_SIMULATOR, message, log);
    const again = await receiveInbound(database, DEPLOYMENT_SIMULATOR, message, log);
    expect(first.outcome).toBe('received');
    expect(again).toEqual({ outcome: 'duplicate', messageId: first.outcome === 'received' ? first.message.id : null });
    const stored = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from messages where carrier_message_id = ${message.carrierMessageId}`,
    );
    expect(stored[0]?.n).toBe(1);
    expect(await repliesTo(s.contactId)).toHaveLength(1);
    expect(await outboxEvents(database.db, 'messageReceived', s.accountId)).toHaveLength(1);
  });

  it('stores a message delivered twice at the same moment once', async () => {
    const s = await setup();
    const message = incoming(s, 'STOP', testNumber());
    const results = await Promise.all([receiveInbound(database, DEPLOYMENT_SIMULATOR, message, log), receiveInbound(database, DEPLOYMENT_SIMULATOR, message, log)]);
    expect(results.map((r) => r.outcome).sort()).toEqual(['duplicate', 'received']);
    const contact = await contactByNumber(s.accountId, message.from);
    expect(await repliesTo(contact?.id ?? '')).toHaveLength(1);
  });

  it('drops a message to a number no account has active', async () => {
    const s = await setup();
    const result = await receiveInbound(database, DEPLOYMENT_SIMULATOR, { ...incoming(s, 'Hello'), to: testNumber() }, log);
    expect(result).toEqual({ outcome: 'unknownNumber' });
    await database.db.execute(sql`update phone_numbers set status = 'suspended' where id = ${s.phoneNumberId}`);
    expect(await receiveInbound(database, DEPLOYMENT_SIMULATOR, incoming(s, 'Hello'), log)).toEqual({ outcome: 'unknownNumber' });
    expect(await outboxEvents(database.db, 'messageReceived', s.accountId)).toEqual([]);
  });

  describe('compliance keywords', () => {
    it('STOP opts the contact out with one free confirmation, which the dispatcher sends; a second STOP gets none', async () => {
      const s = await setup();
      const stop = await receive(incoming(s, 'Stop.'));
      expect(stop.keyword).toMatchObject({ keyword: { kind: 'optOut', keyword: 'STOP' }, changed: true });
      const contact = await contactByNumber(s.accountId, s.contactNumber);
      expect(contact?.optedOutAt).not.toBeNull();
      expect(await outboxEvents(database.db, 'contactOptOut', s.accountId)).toHaveLength(1);

      const [reply] = await repliesTo(s.contactId);
      expect(reply).toMatchObject({
        direction: 'outbound',
        status: 'queued',
        conversationId: stop.message.conversationId,
        phoneNumberId: s.phoneNumberId,
        fromNumber: s.number,
        toNumber: s.contactNumber,
        body: optOutConfirmation(support(s)),
        price: '0.0000',
        encoding: 'GSM-7',
        segments: 1,
        timeZone: null,
        replyToId: stop.message.id,
        eventType: KEYWORD_REPLY_EVENT_TYPES.optOut,
      });
      expect(await outboxEvents(database.db, 'messageSent', s.accountId)).toEqual([
        { data: { message: expect.objectContaining({ id: reply?.id, status: 'queued', price: 0 }) as unknown } },
      ]);

      const again = await receive(incoming(s, 'STOP'));
      expect(again.keyword).toMatchObject({ changed: false, reply: null });
      expect(await repliesTo(s.contactId)).toHaveLength(1);

      // The confirmation goes out although the contact is now opted out.
      const carrier = new RecordingCarrier('simulator');
      await new MessageDispatcher({ database, carriers: registryOf(carrier), log }).dispatchOnce();
      expect(carrier.submits.map((m) => [m.id, m.to, m.text])).toEqual([[reply?.id, s.contactNumber, reply?.body]]);
    });

    it('an opted-out contact cannot be texted until it sends START, which lifts the opt-out once', async () => {
      const s = await setup();
      const send = () =>
        sendMessages(database.db, { accountId: s.accountId, actor: { kind: 'system' }, contactIds: [s.contactId], template: 'Hello' });
      await receive(incoming(s, 'unsubscribe'));
      await expect(send()).rejects.toMatchObject({ statusCode: 409, message: 'This contact has opted out of messages.' });

      const start = await receive(incoming(s, 'START'));
      expect(start.keyword).toMatchObject({ keyword: { kind: 'optIn', keyword: 'START' }, changed: true });
      expect((await contactByNumber(s.accountId, s.contactNumber))?.optedOutAt).toBeNull();
      expect(await outboxEvents(database.db, 'contactOptIn', s.accountId)).toHaveLength(1);
      const replies = await repliesTo(s.contactId);
      expect(replies.map((r) => r.body)).toEqual([optOutConfirmation(support(s)), optInConfirmation(support(s))]);
      await expect(send()).resolves.toMatchObject({ messages: [expect.objectContaining({ contactId: s.contactId })] });

      // START from a contact who is in changes nothing and gets no reply.
      const noop = await receive(incoming(s, 'start'));
      expect(noop.keyword).toMatchObject({ changed: false, reply: null });
      expect(await repliesTo(s.contactId)).toHaveLength(2);
    });

    it('START lifts a block', async () => {
      const s = await setup();
      await database.db.execute(sql`update contacts set blocked_at = now() where id = ${s.contactId}`);
      const result = await receive(incoming(s, 'Yes'));
      expect(result.keyword).toMatchObject({ keyword: { kind: 'optIn', keyword: 'YES' }, changed: true });
      expect((await contactByNumber(s.accountId, s.contactNumber))?.blockedAt).toBeNull();
    });

    it('a plain "yes" from a contact who never left is just a message', async () => {
      const s = await setup();
      const result = await receive(incoming(s, 'yes'));
      expect(result.keyword).toMatchObject({ changed: false, reply: null });
      expect(await outboxEvents(database.db, 'contactOptIn', s.accountId)).toEqual([]);
    });

    it('HELP and INFO are answered, each time, with the account’s support details', async () => {
      const s = await setup();
      await receive(incoming(s, 'HELP'));
      await receive(incoming(s, 'info please'));
      const replies = await repliesTo(s.contactId);
      const expected = `Sender ${s.accountId.slice(0, 8)}: For help, call +14155552671, email support@example.test or visit https://example.test. Reply STOP to unsubscribe.`;
      expect(replies.map((r) => [r.body, r.eventType, r.price])).toEqual([
        [expected, 'helpReply', '0.0000'],
        [expected, 'helpReply', '0.0000'],
      ]);
      // HELP does not change consent.
      expect((await contactByNumber(s.accountId, s.contactNumber))?.optedOutAt).toBeNull();
    });

    it('every opt-out keyword and plain variants opt out; other texts do not', async () => {
      const s = await setup();
      const variants = [...optOutKeywords, ...optOutKeywords.map((k) => k.toLowerCase()), 'stop please', 'Stop.', 'opt-out', 'STOP ALL'];
      for (const text of variants) {
        const from = testNumber();
        const result = await receive(incoming(s, text, from));
        expect(result.keyword?.keyword.kind, text).toBe('optOut');
        expect((await contactByNumber(s.accountId, from))?.optedOutAt, text).not.toBeNull();
      }
      for (const text of ["don't stop", 'cancel my appointment', 'Stop by tomorrow', 'end of the day', 'Thanks!']) {
        const from = testNumber();
        const result = await receive(incoming(s, text, from));
        expect(result.keyword, text).toBeNull();
        const contact = await contactByNumber(s.accountId, from);
        expect(contact?.optedOutAt, text).toBeNull();
        expect(await repliesTo(contact?.id ?? ''), text).toEqual([]);
      }
    });

    it('every opt-in keyword opts an opted-out contact back in', async () => {
      const s = await setup();
      for (const keyword of optInKeywords) {
        const from = testNumber();
        await receive(incoming(s, 'STOP', from));
        const result = await receive(incoming(s, keyword.toLowerCase(), from));
        expect(result.keyword, keyword).toMatchObject({ keyword: { kind: 'optIn', keyword }, changed: true });
        expect((await contactByNumber(s.accountId, from))?.optedOutAt, keyword).toBeNull();
      }
    });

    it('answers through the handlers the carriers call', async () => {
      const s = await setup();
      await createMessageHandlers({ database, log }).forConnection(DEPLOYMENT_SIMULATOR).inbound(incoming(s, 'STOP'));
      expect((await contactByNumber(s.accountId, s.contactNumber))?.optedOutAt).not.toBeNull();
      expect(await repliesTo(s.contactId)).toHaveLength(1);
    });
  });

  it('helpReply names only the support details the account has', () => {
    expect(helpReply({ name: 'Acme' })).toBe('Acme: Reply STOP to unsubscribe.');
    expect(helpReply({ name: 'Acme', email: 'help@acme.test' })).toBe('Acme: For help, email help@acme.test. Reply STOP to unsubscribe.');
    expect(helpReply({ name: 'Acme', phone: '+1 415 555 2671', website: 'https://acme.test' })).toBe(
      'Acme: For help, call +1 415 555 2671 or visit https://acme.test. Reply STOP to unsubscribe.',
    );
    expect(supportDetails('Acme', { name: ' Acme Support ', phone: '', email: 7 })).toEqual({
      name: 'Acme Support',
      phone: undefined,
      email: undefined,
      website: undefined,
    });
  });
});
