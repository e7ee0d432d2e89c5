import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEPLOYMENT_SIMULATOR } from '../carriers/registry.js';
import type { Database } from '../../platform/db/client.js';
import { contacts, conversations, messages, phoneNumbers } from '../../platform/db/schema/index.js';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.js';
import { createAccount } from '../../test/factories.js';
import { silentLogger } from '../../test/logger.js';
import { createPhoneNumber, uniqueTestNumber } from '../../test/phoneNumbers.js';
import { addContact } from '../../test/sendingFixtures.js';
import { openConversations } from './conversations.js';
import { receiveInbound } from './inbound.js';

/*
 * Universal reply (docs/decisions.md): a contact's message to a number with universalReply on lands in the
 * contact's open conversation with the number that talked to them last; off, the number keeps its own.
 */
describe.each(testDatabaseKinds)('universal reply on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  /** An account with numbers A and B; a contact whom A texted last, in an open conversation on A. */
  async function setup(universalReply: boolean) {
    const account = await createAccount(database.db);
    const a = await createPhoneNumber(database.db, account.id);
    const b = await createPhoneNumber(database.db, account.id, { universalReply });
    const contact = await addContact(database.db, account.id, { mobileNumber: uniqueTestNumber(), senderPhoneNumberId: a.id });
    await database.db.transaction(async (tx) => {
      await openConversations(tx, account.id, [{ contactId: contact.id, phoneNumberId: a.id, phoneNumber: a.number, groupId: null }]);
    });
    const [onA] = await database.db.select().from(conversations).where(and(eq(conversations.contactId, contact.id), eq(conversations.phoneNumberId, a.id)));
    return { account, a, b, contact, conversationOnA: onA?.id ?? '' };
  }

  const receive = (to: string, from: string, text = 'Is it still available?') =>
    receiveInbound(database, DEPLOYMENT_SIMULATOR, { carrierMessageId: randomUUID(), from, to, text, media: [], receivedAt: new Date() }, silentLogger());

  it('puts a reply to a universal-reply number in the conversation of the number that texted the contact last', async () => {
    const s = await setup(true);
    const result = await receive(s.b.number, s.contact.mobileNumber);
    expect(result).toMatchObject({ outcome: 'received', conversationStarted: false });
    const [row] = await database.db.select().from(messages).where(and(eq(messages.accountId, s.account.id), eq(messages.contactId, s.contact.id)));
    // The message says where it arrived; the thread is the one on A, and A stays the contact's number.
    expect(row).toMatchObject({ conversationId: s.conversationOnA, phoneNumberId: s.b.id, toNumber: s.b.number });
    expect(await database.db.select().from(conversations).where(and(eq(conversations.contactId, s.contact.id), eq(conversations.phoneNumberId, s.b.id)))).toEqual([]);
    const [contact] = await database.db.select().from(contacts).where(eq(contacts.id, s.contact.id));
    expect(contact?.senderPhoneNumberId).toBe(s.a.id);
  });

  it('keeps a conversation per number when universal reply is off, or when the contact’s number is released', async () => {
    const off = await setup(false);
    expect(await receive(off.b.number, off.contact.mobileNumber)).toMatchObject({ outcome: 'received', conversationStarted: true });
    const [offRow] = await database.db.select().from(messages).where(eq(messages.contactId, off.contact.id));
    expect(offRow?.conversationId).not.toBe(off.conversationOnA);

    const released = await setup(true);
    await database.db.update(phoneNumbers).set({ status: 'released' }).where(eq(phoneNumbers.id, released.a.id));
    expect(await receive(released.b.number, released.contact.mobileNumber)).toMatchObject({ outcome: 'received', conversationStarted: true });
  });

  it('answers a new caller on a universal-reply number in a conversation of its own', async () => {
    const s = await setup(true);
    const stranger = uniqueTestNumber();
    expect(await receive(s.b.number, stranger)).toMatchObject({ outcome: 'received', contactCreated: true, conversationStarted: true });
  });
});
