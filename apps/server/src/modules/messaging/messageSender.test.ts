import { randomUUID } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACT_BLOCKED_MESSAGE, CONTACT_INVALID_MESSAGE, CONTACT_OPTED_OUT_MESSAGE } from '../contacts/reachability.js';
import type { Database } from '../../platform/db/client.js';
import {
  accountAttributes,
  accountTransactions,
  contactGroups,
  contacts,
  conversations,
  groupPhoneNumbers,
  messages,
  phoneNumbers,
} from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { GROUP_NO_ACTIVE_NUMBER_MESSAGE, NO_ACTIVE_NUMBER_MESSAGE, NUMBER_NOT_ACTIVE_MESSAGE } from './senderNumbers.js';
import { UNVERIFIED_EMAIL_MESSAGE } from '../../platform/policies/verifiedEmail.js';
import { ledgerAndBalance, outboxEvents } from '../../test/accounts.js';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.js';
import { createUser } from '../../test/factories.js';
import {
  ALREADY_CHARGED_MESSAGE,
  CONVERSATION_CLOSED_MESSAGE,
  MESSAGE_EMPTY_FOR_CONTACT_MESSAGE,
  NONE_SENDABLE_MESSAGE,
  SEND_NOW_ONE_RECIPIENT_MESSAGE,
  sendMessages,
  type SendMessagesInput,
} from './messageSender.js';
import { addContact, addPhoneNumber, balanceOf, messagingCounts, sendingAccount, type SendingAccount } from '../../test/sendingFixtures.js';

/** The refusal a send throws, for asserting its status and message. */
async function refusal(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('the send was not refused');
}

describe.each(testDatabaseKinds)('sendMessages on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  const send = (account: SendingAccount, input: Partial<SendMessagesInput>) =>
    sendMessages(database.db, {
      accountId: account.accountId,
      actor: { kind: 'user', userId: account.adminId },
      template: 'Hello',
      ...input,
    });

  const messageRows = (accountId: string) =>
    database.db.select().from(messages).where(eq(messages.accountId, accountId)).orderBy(asc(messages.id));

  it('queues one message with its encoding, segments and price, debited once, with its conversation and events', async () => {
    const account = await sendingAccount(database.db);
    const contact = await addContact(database.db, account.accountId);
    const result = await send(account, { contactIds: [contact.id], template: 'a'.repeat(161) });

    expect(result.unsendable).toEqual([]);
    expect(result.charged).toBe('0.0200');
    const [message] = result.messages;
    expect(message).toMatchObject({
      status: 'queued',
      direction: 'outbound',
      encoding: 'GSM-7',
      segments: 2,
      price: '0.0200',
      fromNumber: account.number,
      toNumber: contact.mobileNumber,
      phoneNumberId: account.numberId,
      createdByUserId: account.adminId,
      timeZone: null,
    });
    expect(await messageRows(account.accountId)).toHaveLength(1);

    const ledger = await database.db.select().from(accountTransactions).where(eq(accountTransactions.accountId, account.accountId));
    const debits = ledger.filter((e) => e.kind === 'debit');
    expect(debits).toHaveLength(1);
    expect(debits[0]).toMatchObject({ amount: '0.0200', description: `Message to ${contact.mobileNumber}` });
    expect(await balanceOf(database.db, account.accountId)).toBe('9.9800');
    const sums = await ledgerAndBalance(database.db, account.accountId);
    expect(sums.ledger).toBe(sums.balance);

    const [conversation] = await database.db.select().from(conversations).where(eq(conversations.accountId, account.accountId));
    expect(conversation).toMatchObject({ contactId: contact.id, phoneNumberId: account.numberId, lastMessageId: message?.id, closedAt: null });
    expect(message?.conversationId).toBe(conversation?.id);

    const sent = await outboxEvents(database.db, 'messageSent', account.accountId);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.data).toMatchObject({ message: { id: message?.id, status: 'queued', segments: 2, price: 0.02, outgoing: true } });
    const started = await outboxEvents(database.db, 'conversationStarted', account.accountId);
    expect(started).toHaveLength(1);
    expect(started[0]?.data).toMatchObject({ conversation: { id: conversation?.id, contact: { id: contact.id } } });

    const [kept] = await database.db.select().from(contacts).where(eq(contacts.id, contact.id));
    expect(kept?.senderPhoneNumberId).toBe(account.numberId);
  });

  it('renders the tokens for each contact; unknown tokens and empty values render as nothing', async () => {
    const account = await sendingAccount(database.db);
    await database.db.insert(accountAttributes).values({ accountId: account.accountId, name: 'plan' });
    const ada = await addContact(database.db, account.accountId, { email: 'ada@example.test', attributes: { plan: 'Gold' } });
    const alan = await addContact(database.db, account.accountId, { firstName: 'Alan', lastName: '', attributes: { secret: 'x' } });
    const result = await send(account, {
      contactIds: [ada.id, alan.id],
      template: 'Hi {{{firstName}}} {{{lastName}}} ({{{mobile}}}, {{{email}}}) {{{ plan }}}{{{secret}}}{{{Unknown}}}!',
    });
    expect(result.messages.map((m) => m.body)).toEqual([
      `Hi Ada Lovelace (${ada.mobileNumber}, ada@example.test) Gold!`,
      `Hi Alan  (${alan.mobileNumber}, ) !`,
    ]);
    expect(result.charged).toBe('0.0200');
  });

  it('counts GSM-7 (160 alone, 153 a part, escapes count two) and UCS-2 (70 alone, 67 a part, emoji) and prices per segment', async () => {
    const account = await sendingAccount(database.db, { balance: '100' });
    const cases: { template: string; encoding: string; segments: number }[] = [
      { template: 'a'.repeat(160), encoding: 'GSM-7', segments: 1 },
      { template: 'a'.repeat(161), encoding: 'GSM-7', segments: 2 },
      { template: 'a'.repeat(306), encoding: 'GSM-7', segments: 2 },
      { template: 'a'.repeat(307), encoding: 'GSM-7', segments: 3 },
      { template: '€'.repeat(80), encoding: 'GSM-7', segments: 1 },
      { template: '€'.repeat(81), encoding: 'GSM-7', segments: 2 },
      { template: 'ж'.repeat(70), encoding: 'UCS-2', segments: 1 },
      { template: 'ж'.repeat(71), encoding: 'UCS-2', segments: 2 },
      { template: 'ж'.repeat(134), encoding: 'UCS-2', segments: 2 },
      { template: 'ж'.repeat(135), encoding: 'UCS-2', segments: 3 },
      { template: '😀'.repeat(35), encoding: 'UCS-2', segments: 1 },
      { template: '😀'.repeat(36), encoding: 'UCS-2', segments: 2 },
    ];
    for (const c of cases) {
      const contact = await addContact(database.db, account.accountId);
      const [message] = (await send(account, { contactIds: [contact.id], template: c.template })).messages;
      expect({ template: c.template.slice(0, 3), encoding: message?.encoding, segments: message?.segments }).toEqual({
        template: c.template.slice(0, 3),
        encoding: c.encoding,
        segments: c.segments,
      });
      expect(message?.price).toBe(`0.0${String(c.segments)}00`);
    }
    const sums = await ledgerAndBalance(database.db, account.accountId);
    expect(sums.ledger).toBe(sums.balance);
  });

  it('sends smart quotes and dashes as their GSM-7 look-alikes, charged as GSM-7', async () => {
    const account = await sendingAccount(database.db);
    const contact = await addContact(database.db, account.accountId);
    const text = '“Hello” — it’s here…';
    const [message] = (await send(account, { contactIds: [contact.id], template: text })).messages;
    expect(message).toMatchObject({ encoding: 'GSM-7', segments: 1, body: '"Hello" - it\'s here...' });
  });

  it('charges one MMS price for a message with media, and sends a media-only message with an empty text', async () => {
    const account = await sendingAccount(database.db);
    const contact = await addContact(database.db, account.accountId);
    const media = [{ url: 'https://example.test/a.png', type: 'image/png', filename: 'a.png' }];
    const long = await send(account, { contactIds: [contact.id], template: 'a'.repeat(400), media });
    expect(long.messages[0]).toMatchObject({ price: '0.0300', segments: 3, media });
    const mediaOnly = await send(account, { contactIds: [contact.id], template: '', media });
    expect(mediaOnly.messages[0]).toMatchObject({ body: '', segments: 0, price: '0.0300' });
  });

  it("prices a country from DEFAULT, and refuses MMS to a country whose plan entry has no MMS price", async () => {
    const account = await sendingAccount(database.db);
    const nz = await addContact(database.db, account.accountId, { mobileNumber: '+64211234567', mobileCountry: 'NZ' });
    expect((await send(account, { contactIds: [nz.id] })).messages[0]?.price).toBe('0.0700');
    const gb = await addContact(database.db, account.accountId, { mobileNumber: '+447700900123', mobileCountry: 'GB' });
    const media = [{ url: 'https://example.test/a.png', type: 'image/png', filename: 'a.png' }];
    const error = await refusal(send(account, { contactIds: [gb.id], media }));
    expect(error).toMatchObject({ statusCode: 400, message: 'Your plan has no MMS price for GB: send the message without media.' });
  });

  it('refuses with 402 Insufficient Credit and writes nothing: no message, conversation, ledger entry or event', async () => {
    const account = await sendingAccount(database.db, { balance: '0.0150' });
    const first = await addContact(database.db, account.accountId);
    const second = await addContact(database.db, account.accountId);
    const before = await messagingCounts(database.db, account.accountId);
    const error = await refusal(send(account, { contactIds: [first.id, second.id] }));
    expect(error).toMatchObject({ statusCode: 402, message: 'Insufficient Credit' });
    expect(await messagingCounts(database.db, account.accountId)).toEqual(before);
    expect(await balanceOf(database.db, account.accountId)).toBe('0.0150');
    const [kept] = await database.db.select().from(contacts).where(eq(contacts.id, first.id));
    expect(kept?.senderPhoneNumberId).toBeNull();
  });

  it('lets racing sends spend the balance once: one queued, the other refused with 402 and nothing written', async () => {
    const account = await sendingAccount(database.db, { balance: '0.0150' });
    const first = await addContact(database.db, account.accountId);
    const second = await addContact(database.db, account.accountId);
    const before = await messagingCounts(database.db, account.accountId);
    // Both may pass the first look at the balance; the debit, last in each, lets one through.
    const results = await Promise.allSettled([send(account, { contactIds: [first.id] }), send(account, { contactIds: [second.id] })]);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused).toHaveLength(1);
    expect(refused[0]?.reason).toMatchObject({ statusCode: 402, message: 'Insufficient Credit' });
    expect(await messagingCounts(database.db, account.accountId)).toEqual({
      messages: before.messages + 1,
      conversations: before.conversations + 1,
      ledger: before.ledger + 1,
      events: before.events + 2,
    });
    expect(await ledgerAndBalance(database.db, account.accountId)).toEqual({ ledger: '0.0050', balance: '0.0050' });
  });

  it('refuses a charge key used before with 409 and writes nothing: the debit, last, takes back the writes', async () => {
    const account = await sendingAccount(database.db, { balance: '1' });
    const first = await addContact(database.db, account.accountId);
    const second = await addContact(database.db, account.accountId);
    await send(account, { contactIds: [first.id], chargeIdempotencyKey: 'batch-1' });
    const before = await messagingCounts(database.db, account.accountId);
    const error = await refusal(send(account, { contactIds: [second.id], chargeIdempotencyKey: 'batch-1' }));
    expect(error).toMatchObject({ statusCode: 409, message: ALREADY_CHARGED_MESSAGE });
    expect(await messagingCounts(database.db, account.accountId)).toEqual(before);
    expect(await messageRows(account.accountId)).toHaveLength(1);
    expect(await balanceOf(database.db, account.accountId)).toBe('0.9900');
  });

  it('refuses a blocked, opted-out or invalid contact with its reason, and leaves them out of a larger send', async () => {
    const account = await sendingAccount(database.db);
    const blocked = await addContact(database.db, account.accountId, { blockedAt: new Date() });
    const optedOut = await addContact(database.db, account.accountId, { optedOutAt: new Date() });
    const invalid = await addContact(database.db, account.accountId, { mobileNumber: '12', valid: false, errorDescription: 'Country or Number is not valid' });
    const fine = await addContact(database.db, account.accountId);

    expect(await refusal(send(account, { contactIds: [blocked.id] }))).toMatchObject({ statusCode: 409, message: CONTACT_BLOCKED_MESSAGE });
    expect(await refusal(send(account, { contactIds: [optedOut.id] }))).toMatchObject({ message: CONTACT_OPTED_OUT_MESSAGE });
    expect(await refusal(send(account, { contactIds: [invalid.id] }))).toMatchObject({
      message: `${CONTACT_INVALID_MESSAGE} Country or Number is not valid`,
    });
    expect(await refusal(send(account, { contactIds: [blocked.id, optedOut.id] }))).toMatchObject({
      statusCode: 400,
      message: NONE_SENDABLE_MESSAGE,
    });
    expect((await messagingCounts(database.db, account.accountId)).messages).toBe(0);

    const result = await send(account, { contactIds: [blocked.id, fine.id, optedOut.id, invalid.id] });
    expect(result.messages.map((m) => m.contactId)).toEqual([fine.id]);
    expect(result.unsendable.map((u) => [u.contactId, u.error.message])).toEqual([
      [blocked.id, CONTACT_BLOCKED_MESSAGE],
      [optedOut.id, CONTACT_OPTED_OUT_MESSAGE],
      [invalid.id, `${CONTACT_INVALID_MESSAGE} Country or Number is not valid`],
    ]);
    expect(result.charged).toBe('0.0100');
  });

  it('leaves out a contact whose tokens all render empty, unless media goes with it', async () => {
    const account = await sendingAccount(database.db);
    const nameless = await addContact(database.db, account.accountId, { firstName: '' });
    expect(await refusal(send(account, { contactIds: [nameless.id], template: '{{{firstName}}}' }))).toMatchObject({
      statusCode: 400,
      message: MESSAGE_EMPTY_FOR_CONTACT_MESSAGE,
    });
  });

  it('refuses a person whose e-mail is not verified, and lets an API client send', async () => {
    const account = await sendingAccount(database.db);
    const contact = await addContact(database.db, account.accountId);
    const unverified = await createUser(database.db, { emailVerifiedAt: null });
    const error = await refusal(
      sendMessages(database.db, { accountId: account.accountId, actor: { kind: 'user', userId: unverified.id }, contactIds: [contact.id], template: 'Hi' }),
    );
    expect(error).toMatchObject({ statusCode: 403, message: UNVERIFIED_EMAIL_MESSAGE });
    expect((await messagingCounts(database.db, account.accountId)).messages).toBe(0);
    const byClient = await sendMessages(database.db, {
      accountId: account.accountId,
      actor: { kind: 'apiClient', clientId: 'pk_test' },
      contactIds: [contact.id],
      template: 'Hi',
    });
    expect(byClient.messages[0]?.createdByUserId).toBeNull();
  });

  describe('the number a message goes from', () => {
    it("keeps the contact's number while it is active, else takes the account's oldest active number", async () => {
      const account = await sendingAccount(database.db);
      const newer = await addPhoneNumber(database.db, account.accountId, { createdAt: new Date('2024-06-01T00:00:00Z') });
      const contact = await addContact(database.db, account.accountId, { senderPhoneNumberId: newer.id });
      expect((await send(account, { contactIds: [contact.id] })).messages[0]?.phoneNumberId).toBe(newer.id);

      await database.db.update(phoneNumbers).set({ status: 'suspended' }).where(eq(phoneNumbers.id, newer.id));
      expect((await send(account, { contactIds: [contact.id] })).messages[0]?.phoneNumberId).toBe(account.numberId);
      const [kept] = await database.db.select().from(contacts).where(eq(contacts.id, contact.id));
      expect(kept?.senderPhoneNumberId).toBe(account.numberId);
    });

    it("follows a group filter (the contact's number when the group holds it, else the group's oldest) and a number filter", async () => {
      const account = await sendingAccount(database.db);
      const second = await addPhoneNumber(database.db, account.accountId, { createdAt: new Date('2024-02-01T00:00:00Z') });
      const third = await addPhoneNumber(database.db, account.accountId, { createdAt: new Date('2024-03-01T00:00:00Z') });
      const groupId = randomUUID();
      await database.db.insert(contactGroups).values({ id: groupId, accountId: account.accountId, name: 'Support' });
      await database.db.insert(groupPhoneNumbers).values([
        { groupId, phoneNumberId: third.id },
        { groupId, phoneNumberId: second.id },
      ]);
      const stranger = await addContact(database.db, account.accountId);
      const regular = await addContact(database.db, account.accountId, { senderPhoneNumberId: third.id });

      const result = await send(account, { contactIds: [stranger.id, regular.id], phoneNumberFilter: { group: groupId } });
      expect(result.messages.map((m) => m.phoneNumberId)).toEqual([second.id, third.id]);
      const opened = await database.db.select().from(conversations).where(eq(conversations.contactId, stranger.id));
      expect(opened[0]?.groupId).toBe(groupId);

      const byNumber = await send(account, { contactIds: [regular.id], phoneNumberFilter: { group: account.numberId } });
      expect(byNumber.messages[0]?.phoneNumberId).toBe(account.numberId);
    });

    it('refuses a filter that cannot send: an inactive number, a group without active numbers, another account’s ids', async () => {
      const account = await sendingAccount(database.db);
      const other = await sendingAccount(database.db);
      const contact = await addContact(database.db, account.accountId);
      const pending = await addPhoneNumber(database.db, account.accountId, { status: 'pending' });
      const emptyGroup = randomUUID();
      await database.db.insert(contactGroups).values({ id: emptyGroup, accountId: account.accountId, name: 'Empty' });
      await database.db.insert(groupPhoneNumbers).values({ groupId: emptyGroup, phoneNumberId: pending.id });
      const otherGroup = randomUUID();
      await database.db.insert(contactGroups).values({ id: otherGroup, accountId: other.accountId, name: 'Theirs' });

      expect(await refusal(send(account, { contactIds: [contact.id], phoneNumberFilter: { group: pending.id } }))).toMatchObject({
        statusCode: 400,
        message: NUMBER_NOT_ACTIVE_MESSAGE,
      });
      expect(await refusal(send(account, { contactIds: [contact.id], phoneNumberFilter: { group: emptyGroup } }))).toMatchObject({
        statusCode: 400,
        message: GROUP_NO_ACTIVE_NUMBER_MESSAGE,
      });
      for (const theirs of [other.numberId, otherGroup, randomUUID()]) {
        expect(await refusal(send(account, { contactIds: [contact.id], phoneNumberFilter: { group: theirs } }))).toMatchObject({
          statusCode: 404,
          message: 'The group or phone number was not found.',
        });
      }
      expect((await messagingCounts(database.db, account.accountId)).messages).toBe(0);
    });

    it('refuses when the account has no active number', async () => {
      const account = await sendingAccount(database.db);
      await database.db.update(phoneNumbers).set({ status: 'released' }).where(eq(phoneNumbers.accountId, account.accountId));
      const contact = await addContact(database.db, account.accountId);
      expect(await refusal(send(account, { contactIds: [contact.id] }))).toMatchObject({ statusCode: 400, message: NO_ACTIVE_NUMBER_MESSAGE });
    });
  });

  describe('conversations', () => {
    it('opens one conversation per contact and number, reuses it, and opens a new one once it is closed', async () => {
      const account = await sendingAccount(database.db);
      const contact = await addContact(database.db, account.accountId);
      const first = await send(account, { contactIds: [contact.id] });
      const again = await send(account, { contactIds: [contact.id], template: 'Again' });
      expect(again.messages[0]?.conversationId).toBe(first.messages[0]?.conversationId);
      expect(await outboxEvents(database.db, 'conversationStarted', account.accountId)).toHaveLength(1);
      const [conversation] = await database.db.select().from(conversations).where(eq(conversations.contactId, contact.id));
      expect(conversation?.lastMessageId).toBe(again.messages[0]?.id);

      await database.db.update(conversations).set({ closedAt: new Date() }).where(eq(conversations.contactId, contact.id));
      const afterClose = await send(account, { contactIds: [contact.id] });
      expect(afterClose.messages[0]?.conversationId).not.toBe(first.messages[0]?.conversationId);
      expect(await outboxEvents(database.db, 'conversationStarted', account.accountId)).toHaveLength(2);
    });

    it('answers a conversation from its own number, refuses a closed one, and sends once to a contact named twice', async () => {
      const account = await sendingAccount(database.db);
      const other = await addPhoneNumber(database.db, account.accountId, { createdAt: new Date('2024-05-01T00:00:00Z') });
      const contact = await addContact(database.db, account.accountId);
      const conversationId = (await send(account, { contactIds: [contact.id], phoneNumberFilter: { group: other.id } })).messages[0]?.conversationId;
      if (conversationId === undefined) throw new Error('no conversation');

      const reply = await send(account, { conversationIds: [conversationId, conversationId], contactIds: [contact.id, contact.id] });
      expect(reply.messages).toHaveLength(1);
      expect(reply.messages[0]).toMatchObject({ conversationId, phoneNumberId: other.id });

      await database.db.update(conversations).set({ closedAt: new Date() }).where(eq(conversations.id, conversationId));
      expect(await refusal(send(account, { conversationIds: [conversationId] }))).toMatchObject({
        statusCode: 409,
        message: CONVERSATION_CLOSED_MESSAGE,
      });
    });

    it("answers 404 for another account's contact or conversation and sends nothing", async () => {
      const account = await sendingAccount(database.db);
      const other = await sendingAccount(database.db);
      const theirs = await addContact(database.db, other.accountId);
      const theirConversation = (await send(other, { contactIds: [theirs.id] })).messages[0]?.conversationId ?? '';
      const mine = await addContact(database.db, account.accountId);
      expect(await refusal(send(account, { contactIds: [mine.id, theirs.id] }))).toMatchObject({
        statusCode: 404,
        message: 'The contact was not found.',
      });
      expect(await refusal(send(account, { contactIds: [mine.id], conversationIds: [theirConversation] }))).toMatchObject({
        statusCode: 404,
        message: 'The conversation was not found.',
      });
      expect(await messagingCounts(database.db, account.accountId)).toMatchObject({ messages: 0, conversations: 0 });
      expect((await messagingCounts(database.db, other.accountId)).messages).toBe(1);
    });
  });

  describe('quiet hours', () => {
    const quietHours = { enabled: true, start: '08:00', end: '21:00' };

    it("holds a message outside the window until the next opening in the recipient's zone", async () => {
      const account = await sendingAccount(database.db, { quietHours });
      const newYork = await addContact(database.db, account.accountId, { mobileNumber: '+12125550143', mobileCountry: 'US' });
      const losAngeles = await addContact(database.db, account.accountId, { mobileNumber: '+13105550143', mobileCountry: 'US' });
      // 12:00Z on 15 January: 07:00 in New York, 04:00 in Los Angeles.
      const now = new Date('2025-01-15T12:00:00Z');
      const result = await send(account, { contactIds: [newYork.id, losAngeles.id], now });
      expect(result.messages.map((m) => [m.timeZone, m.sendAfter.toISOString()])).toEqual([
        ['America/New_York', '2025-01-15T13:00:00.000Z'],
        ['America/Los_Angeles', '2025-01-15T16:00:00.000Z'],
      ]);
      const sent = await outboxEvents(database.db, 'messageSent', account.accountId);
      expect(sent[0]?.data).toMatchObject({ message: { sendAfter: '2025-01-15T13:00:00.000Z' } });
    });

    it('sends at once inside the window, and carries no zone when quiet hours are off', async () => {
      const account = await sendingAccount(database.db, { quietHours });
      const contact = await addContact(database.db, account.accountId, { mobileNumber: '+12125550144', mobileCountry: 'US' });
      const now = new Date('2025-07-15T15:00:00Z'); // 11:00 in New York
      const [inside] = (await send(account, { contactIds: [contact.id], now })).messages;
      expect(inside).toMatchObject({ timeZone: 'America/New_York', sendAfter: now });

      const off = await sendingAccount(database.db);
      const other = await addContact(database.db, off.accountId);
      const late = new Date('2025-07-15T06:00:00Z');
      const [unheld] = (await send(off, { contactIds: [other.id], now: late })).messages;
      expect(unheld).toMatchObject({ timeZone: null, sendAfter: late });
    });
  });

  describe('quiet hours and conversations', () => {
    const quietHours = { enabled: true, start: '08:00', end: '21:00' };
    // 08:10Z on 29 November: 03:10 in New York, hours closed until 13:00Z.
    const night = new Date('2026-11-29T08:10:00Z');
    const opening = '2026-11-29T13:00:00.000Z';

    /** The contact texted the account at `at`. */
    async function wrote(account: SendingAccount, contactId: string, at: Date): Promise<void> {
      const conversationId = randomUUID();
      await database.db.insert(conversations).values({ id: conversationId, accountId: account.accountId, contactId, phoneNumberId: account.numberId });
      await database.db.insert(messages).values({
        id: randomUUID(),
        accountId: account.accountId,
        conversationId,
        contactId,
        phoneNumberId: account.numberId,
        direction: 'inbound',
        fromNumber: '+12125550150',
        toNumber: account.number,
        status: 'received',
        createdAt: at,
      });
    }

    const newYorker = (account: SendingAccount) => addContact(database.db, account.accountId, { mobileCountry: 'US', mobileNumber: `+1212555${String(Math.floor(1000 + Math.random() * 8999))}` });

    it('answers at once, at any hour, a contact who wrote in the last 24 hours', async () => {
      const account = await sendingAccount(database.db, { quietHours });
      const contact = await newYorker(account);
      await wrote(account, contact.id, new Date(night.getTime() - 23 * 3_600_000));
      const [reply] = (await send(account, { contactIds: [contact.id], now: night })).messages;
      expect(reply).toMatchObject({ timeZone: null, sendAfter: night, approvedOutsideHoursAt: null });
    });

    it('holds a first message, and one to a contact who wrote longer ago, until the hours open', async () => {
      const account = await sendingAccount(database.db, { quietHours });
      const first = await newYorker(account);
      const [held] = (await send(account, { contactIds: [first.id], now: night })).messages;
      expect(held).toMatchObject({ timeZone: 'America/New_York', approvedOutsideHoursAt: null });
      expect(held?.sendAfter.toISOString()).toBe(opening);

      const older = await newYorker(account);
      await wrote(account, older.id, new Date(night.getTime() - 25 * 3_600_000));
      const [stillHeld] = (await send(account, { contactIds: [older.id], now: night })).messages;
      expect(stillHeld?.sendAfter.toISOString()).toBe(opening);
    });

    it('sends a one-to-one message its sender confirmed at once, marked as sent outside the hours', async () => {
      const account = await sendingAccount(database.db, { quietHours });
      const contact = await newYorker(account);
      const [confirmed] = (await send(account, { contactIds: [contact.id], now: night, sendNow: true })).messages;
      expect(confirmed).toMatchObject({ timeZone: 'America/New_York', sendAfter: night, approvedOutsideHoursAt: night });
      // Within the hours a confirmation changes nothing.
      const day = new Date('2026-11-29T16:00:00Z');
      const [inside] = (await send(account, { contactIds: [contact.id], now: day, sendNow: true })).messages;
      expect(inside).toMatchObject({ sendAfter: day, approvedOutsideHoursAt: null });
    });

    it('holds bulk sends and campaigns even for contacts who wrote, and refuses sendNow for several recipients', async () => {
      const account = await sendingAccount(database.db, { quietHours });
      const a = await newYorker(account);
      const b = await newYorker(account);
      for (const contact of [a, b]) await wrote(account, contact.id, new Date(night.getTime() - 3_600_000));
      const bulk = await send(account, { contactIds: [a.id, b.id], now: night });
      expect(bulk.messages.map((m) => m.sendAfter.toISOString())).toEqual([opening, opening]);

      const [campaign] = (await send(account, { contactIds: [a.id], now: night, jobId: randomUUID() })).messages;
      expect(campaign?.sendAfter.toISOString()).toBe(opening);

      const refused = await refusal(send(account, { contactIds: [a.id, b.id], now: night, sendNow: true }));
      expect(refused.statusCode).toBe(400);
      expect(refused.message).toBe(SEND_NOW_ONE_RECIPIENT_MESSAGE);
    });
  });

  it('queues a batch in one debit: a message, a conversation and an event per contact', async () => {
    const account = await sendingAccount(database.db, { balance: '50' });
    const ids: string[] = [];
    for (let i = 0; i < 120; i++) ids.push((await addContact(database.db, account.accountId, { firstName: `C${String(i)}` })).id);
    const result = await send(account, { contactIds: ids, template: 'Hi {{{firstName}}}' });
    expect(result.messages).toHaveLength(120);
    expect(result.charged).toBe('1.2000');
    expect(await messagingCounts(database.db, account.accountId)).toEqual({ messages: 120, conversations: 120, ledger: 2, events: 240 });
    const debits = await database.db
      .select()
      .from(accountTransactions)
      .where(and(eq(accountTransactions.accountId, account.accountId), eq(accountTransactions.kind, 'debit')));
    expect(debits.map((d) => [d.amount, d.description])).toEqual([['1.2000', '120 messages']]);
    const sums = await ledgerAndBalance(database.db, account.accountId);
    expect(sums).toEqual({ ledger: '48.8000', balance: '48.8000' });
  });
});
