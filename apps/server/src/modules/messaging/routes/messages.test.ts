import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { Ajv } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  MESSAGE_EMPTY_MESSAGE,
  MESSAGE_READ_NOT_UNREADABLE_MESSAGE,
  MESSAGE_RECIPIENT_REQUIRED_MESSAGE,
  roles,
  type Account,
  type Message,
  type Pagination,
  type SendMessageResult,
} from '@parley/shared';
import { creditAccount } from '../../billing/ledger.js';
import { addContact, addPhoneNumber, messagingCounts, sendingAccount, type SendingAccount } from '../../../test/sendingFixtures.js';
import { CONTACT_BLOCKED_MESSAGE } from '../../contacts/reachability.js';
import { accountMembers, conversations, messages, type MessageRow } from '../../../platform/db/schema/index.js';
import { UNVERIFIED_EMAIL_MESSAGE } from '../../../platform/policies/verifiedEmail.js';
import { ledgerAndBalance, outboxEvents } from '../../../test/accounts.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { createUser } from '../../../test/factories.js';
import { useRouteHarness } from '../../../test/routeHarness.js';
import { readContract } from '../../../test/contract/contractSamples.js';

interface Sent {
  statusCode: number;
  body: SendMessageResult;
}

/** The 'HH:MM' of an instant in a zone, shifted by whole hours. */
function localTime(zone: string, shiftHours: number, at = new Date()): string {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(
    new Date(at.getTime() + shiftHours * 3_600_000),
  );
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return `${get('hour')}:${get('minute')}`;
}

describe.each(testDatabaseKinds)('messages on %s', (kind) => {
  const { h, fixtures, tokens } = useRouteHarness(kind);

  let account: SendingAccount;
  let token: string;
  beforeAll(async () => {
    account = await sendingAccount(h.database.db);
    token = h.tokenFor(account.adminId);
    // The role fixtures' account can send too.
    await h.database.db.transaction((tx) => creditAccount(tx, { accountId: fixtures.accountId, amount: '5', description: 'Test credit' }));
    await addPhoneNumber(h.database.db, fixtures.accountId);
  });

  const url = (acc: string) => `/v1/accounts/${acc}/messages`;
  const post = async (acc: string, who: string, body: object): Promise<Sent> => {
    const res = await h.call('POST', url(acc), who, body);
    return { statusCode: res.statusCode, body: res.json<SendMessageResult>() };
  };

  /** A message in the contact's conversation written directly: incoming (as the inbound path will) unless overridden. */
  async function insertMessage(acc: SendingAccount, contactId: string, conversationId: string, overrides: Partial<MessageRow> = {}): Promise<string> {
    const id = uuidv7();
    await h.database.db.insert(messages).values({
      id,
      accountId: acc.accountId,
      conversationId,
      contactId,
      phoneNumberId: acc.numberId,
      direction: 'inbound',
      fromNumber: '+12025550100',
      toNumber: acc.number,
      body: 'Incoming',
      status: 'received',
      ...overrides,
    });
    return id;
  }

  it("sends to a contact: 200 with the hosted API's answer, the queued message with its encoding, segments and price", async () => {
    const contact = await addContact(h.database.db, account.accountId, { firstName: 'Grace' });
    const res = await post(account.accountId, token, { contacts: [contact.id], template: 'Hi {{{firstName}}} ✓' });
    expect(res.statusCode).toBe(200);
    expect(res.body.data).toMatchObject({ invalid: [], requested: 1, valid: 1, estimatedPrice: 0.01 });
    expect(res.body.data.messages).toHaveLength(1);
    expect(res.body.data.messages[0]).toMatchObject({
      contact: { id: contact.id },
      phoneNumber: account.number,
      phoneNumberId: account.numberId,
      message: 'Hi Grace ✓',
      direction: 'outbound',
      outgoing: true,
      status: 'queued',
      read: true,
      encoding: 'UCS-2',
      segments: 1,
      price: 0.01,
    });
    // Absent values are left out, as the hosted product's contract does (docs/api.md).
    for (const absent of ['sendAfter', 'error', 'templateId', 'jobId', 'eventType', 'sent']) expect(res.body.data.messages[0], absent).not.toHaveProperty(absent);
    const sums = await ledgerAndBalance(h.database.db, account.accountId);
    expect(sums.ledger).toBe(sums.balance);
  });

  it("answers the hosted API's SendMessagesResponse, its schema checked as the contract replay checks it", async () => {
    const contract = readContract(new URL('../../../test/contract/hostedApiV1.json', import.meta.url));
    const blocked = await addContact(h.database.db, account.accountId, { blockedAt: new Date(), email: 'blocked@example.test' });
    const fine = await addContact(h.database.db, account.accountId);
    const res = await post(account.accountId, token, { contacts: [fine.id, blocked.id], template: 'Hi' });
    expect(res.statusCode).toBe(200);
    expect(res.body.data.invalid[0]).toMatchObject({ email: 'blocked@example.test' });
    const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
    const validate = ajv.compile({ $ref: '#/components/schemas/SendMessagesResponse', components: contract.document.components });
    // The messages are GET messages' Message, whose shape is judged by the replay of messages.fetch.
    const answer = { data: { ...res.body.data, messages: [] } };
    expect(validate(answer), ajv.errorsText(validate.errors)).toBe(true);
  });

  it('lets every role but Read Only send (403 for Read Only, nothing written)', async () => {
    for (const role of roles) {
      const contact = await addContact(h.database.db, fixtures.accountId);
      const res = await post(fixtures.accountId, tokens[role], { contacts: [contact.id], template: `From ${role}` });
      expect(res.statusCode, role).toBe(role === 'ReadOnly' ? 403 : 200);
    }
    const counts = await messagingCounts(h.database.db, fixtures.accountId);
    expect(counts.messages).toBe(3);
  });

  it('lists the unreachable among several recipients and answers the reason when the only one is unreachable', async () => {
    const fine = await addContact(h.database.db, account.accountId);
    const blocked = await addContact(h.database.db, account.accountId, { blockedAt: new Date() });
    const several = await post(account.accountId, token, { contacts: [fine.id, blocked.id], template: 'Hello' });
    expect(several.statusCode).toBe(200);
    expect(several.body.data.messages.map((m) => m.contact.id)).toEqual([fine.id]);
    // The contract's Contact with its error (no e-mail: left out), and what the web app reads.
    expect(several.body.data.invalid).toEqual([
      {
        id: blocked.id,
        firstName: blocked.firstName,
        lastName: blocked.lastName,
        mobile: { number: blocked.mobileNumber, country: blocked.mobileCountry },
        error: { code: 'conflict', description: CONTACT_BLOCKED_MESSAGE },
        contact: { id: blocked.id },
        conversation: null,
        reason: CONTACT_BLOCKED_MESSAGE,
      },
    ]);
    expect(several.body.data).toMatchObject({ requested: 2, valid: 1, estimatedPrice: 0.01 });

    const only = await h.call('POST', url(account.accountId), token, { contacts: [blocked.id], template: 'Hello' });
    expect(only.statusCode).toBe(409);
    expect(only.json()).toEqual({ error: { code: 'conflict', message: CONTACT_BLOCKED_MESSAGE } });
  });

  it("answers 402 Insufficient Credit and writes nothing when the balance can't cover the request", async () => {
    const poor = await sendingAccount(h.database.db, { balance: '0.0100' });
    const contacts = [await addContact(h.database.db, poor.accountId), await addContact(h.database.db, poor.accountId)];
    const before = await messagingCounts(h.database.db, poor.accountId);
    const res = await h.call('POST', url(poor.accountId), h.tokenFor(poor.adminId), { contacts: contacts.map((c) => c.id), template: 'Hi' });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({ error: { code: 'bad_request', message: 'Insufficient Credit' } });
    expect(await messagingCounts(h.database.db, poor.accountId)).toEqual(before);
  });

  it('refuses bad input with a clear message', async () => {
    const contact = await addContact(h.database.db, account.accountId);
    const media = { url: 'https://example.test/a.png', type: 'image/png', filename: 'a.png' };
    const cases: [object, string][] = [
      [{ template: 'Hi' }, MESSAGE_RECIPIENT_REQUIRED_MESSAGE],
      [{ contacts: [contact.id], template: '  ' }, MESSAGE_EMPTY_MESSAGE],
      [{ contacts: [contact.id], template: 'Hi', media: Array.from({ length: 6 }, () => media) }, 'At most 5 attachments'],
      [{ contacts: [contact.id], template: 'x'.repeat(1601) }, 'At most 1600 characters'],
      [{ contacts: ['not-a-uuid'], template: 'Hi' }, 'contacts'],
    ];
    const before = await messagingCounts(h.database.db, account.accountId);
    for (const [body, message] of cases) {
      const res = await h.call('POST', url(account.accountId), token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json<{ error: { message: string } }>().error.message).toContain(message);
    }
    expect(await messagingCounts(h.database.db, account.accountId)).toEqual(before);
  });

  it("answers 404 for another account's contact, conversation or number and sends nothing", async () => {
    const other = await sendingAccount(h.database.db);
    const theirs = await addContact(h.database.db, other.accountId);
    const theirMessage = await post(other.accountId, h.tokenFor(other.adminId), { contacts: [theirs.id], template: 'Hi' });
    const theirConversation = theirMessage.body.data.messages[0]?.conversation.id ?? '';
    const mine = await addContact(h.database.db, account.accountId);
    const before = await messagingCounts(h.database.db, account.accountId);
    for (const body of [
      { contacts: [theirs.id], template: 'Hi' },
      { conversations: [theirConversation], template: 'Hi' },
      { contacts: [mine.id], template: 'Hi', phoneNumberFilter: { group: other.numberId } },
    ]) {
      const res = await h.call('POST', url(account.accountId), token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(404);
    }
    expect(await messagingCounts(h.database.db, account.accountId)).toEqual(before);
    // Nor with the other account's id in the path.
    expect((await h.call('POST', url(other.accountId), token, { contacts: [theirs.id], template: 'Hi' })).statusCode).toBe(404);
  });

  it('refuses a person whose e-mail is not verified (403) and lets an API client send', async () => {
    const unverified = await createUser(h.database.db, { emailVerifiedAt: null });
    await h.database.db.insert(accountMembers).values({ accountId: account.accountId, userId: unverified.id, role: 'Sender' });
    const contact = await addContact(h.database.db, account.accountId);
    const refused = await h.call('POST', url(account.accountId), h.tokenFor(unverified.id), { contacts: [contact.id], template: 'Hi' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: { code: 'forbidden', message: UNVERIFIED_EMAIL_MESSAGE } });

    const clientId = `pk_${randomUUID()}`;
    const clientToken = h.authenticator.add({ userId: clientId, clientId, accountIds: [account.accountId] });
    const sent = await post(account.accountId, clientToken, { contacts: [contact.id], template: 'Hi' });
    expect(sent.statusCode).toBe(200);
  });

  it("holds a message outside the account's quiet hours in the recipient's zone, and sends at once inside them", async () => {
    const zoned = await sendingAccount(h.database.db);
    const zonedToken = h.tokenFor(zoned.adminId);
    const accountUrl = `/v1/accounts/${zoned.accountId}`;
    const contact = await addContact(h.database.db, zoned.accountId, { mobileNumber: '+12125550177', mobileCountry: 'US' });

    // A window that opens two hours from now in New York: now is outside it.
    const later = { enabled: true, start: localTime('America/New_York', 2), end: localTime('America/New_York', 3) };
    const saved = await h.call('PUT', accountUrl, zonedToken, { quietHours: later });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await h.call('GET', accountUrl, zonedToken)).json<{ data: Account }>().data.quietHours).toEqual(later);
    const held = await post(zoned.accountId, zonedToken, { contacts: [contact.id], template: 'Later' });
    const sendAfter = held.body.data.messages[0]?.sendAfter ?? null;
    expect(sendAfter).not.toBeNull();
    const wait = new Date(sendAfter ?? 0).getTime() - Date.now();
    expect(wait).toBeGreaterThan(60 * 60_000);
    expect(wait).toBeLessThan(2 * 60 * 60_000 + 60_000);
    const [row] = await h.database.db.select().from(messages).where(eq(messages.id, held.body.data.messages[0]?.id ?? ''));
    expect(row?.timeZone).toBe('America/New_York');

    // A window around now (it may wrap midnight): sent at once.
    const around = { enabled: true, start: localTime('America/New_York', -1), end: localTime('America/New_York', 2) };
    expect((await h.call('PUT', accountUrl, zonedToken, { quietHours: around })).statusCode).toBe(200);
    expect((await post(zoned.accountId, zonedToken, { contacts: [contact.id], template: 'Now' })).body.data.messages[0]).not.toHaveProperty('sendAfter');

    for (const [quietHours, message] of [
      [{ enabled: true, start: '8:00', end: '21:00' }, 'Use HH:MM, from 00:00 to 23:59'],
      [{ enabled: true, start: '09:00', end: '09:00' }, 'The start and the end must differ'],
    ] as const) {
      const bad = await h.call('PUT', accountUrl, zonedToken, { quietHours });
      expect(bad.statusCode).toBe(400);
      expect(bad.body).toContain(message);
    }
    expect((await h.call('GET', accountUrl, zonedToken)).json<{ data: Account }>().data.quietHours).toEqual(around);
  });

  describe('reading', () => {
    let reader: SendingAccount;
    let readerToken: string;
    let conversationId: string;
    let contactId: string;
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      reader = await sendingAccount(h.database.db);
      readerToken = h.tokenFor(reader.adminId);
      const contact = await addContact(h.database.db, reader.accountId);
      contactId = contact.id;
      const first = await post(reader.accountId, readerToken, { contacts: [contact.id], template: 'First' });
      conversationId = first.body.data.messages[0]?.conversation.id ?? '';
      ids.first = first.body.data.messages[0]?.id ?? '';
      ids.incoming = await insertMessage(reader, contact.id, conversationId);
      ids.failed = (await post(reader.accountId, readerToken, { contacts: [contact.id], template: 'Second' })).body.data.messages[0]?.id ?? '';
      await h.database.db
        .update(messages)
        .set({ status: 'failed', errorCode: '30003', errorDescription: 'Unreachable destination handset' })
        .where(eq(messages.id, ids.failed));
      const jobId = randomUUID();
      ids.job = jobId;
      ids.campaign = await insertMessage(reader, contact.id, conversationId, { direction: 'outbound', status: 'queued', jobId, fromNumber: reader.number, toNumber: contact.mobileNumber });
      const otherContact = await addContact(h.database.db, reader.accountId);
      ids.otherConversation = (await post(reader.accountId, readerToken, { contacts: [otherContact.id], template: 'Other' })).body.data.messages[0]?.id ?? '';
    });

    const list = async (query = '') => {
      const res = await h.call('GET', `${url(reader.accountId)}${query}`, readerToken);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ data: Message[]; pagination: Pagination }>();
    };

    it('lists newest first with paging, and filters by conversation, contact, job, direction and errors', async () => {
      const all = await list();
      expect(all.data.map((m) => m.id)).toEqual([ids.otherConversation, ids.campaign, ids.failed, ids.incoming, ids.first]);
      expect(all.pagination).toEqual({ totalCount: 5, offset: 0, limit: 10 });
      const page = await list('?limit=2&offset=1');
      expect(page.data.map((m) => m.id)).toEqual([ids.campaign, ids.failed]);
      expect(page.pagination).toEqual({ totalCount: 5, offset: 1, limit: 2, next: expect.any(String) as string });

      expect((await list(`?conversationId=${conversationId}`)).data).toHaveLength(4);
      expect((await list(`?contactId=${contactId}`)).data).toHaveLength(4);
      expect((await list(`?jobId=${ids.job ?? ''}`)).data.map((m) => m.id)).toEqual([ids.campaign]);
      expect((await list('?incoming=true')).data.map((m) => m.id)).toEqual([ids.incoming]);
      expect((await list('?outgoing=true')).data).toHaveLength(4);
      expect((await list('?incoming=false')).data).toHaveLength(4);
      const errors = await list('?errors=true');
      expect(errors.data.map((m) => m.id)).toEqual([ids.failed]);
      expect(errors.data[0]?.error).toEqual({ code: '30003', description: 'Unreachable destination handset' });
      expect((await list('?errors=false')).data).toHaveLength(4);
      expect((await h.call('GET', `${url(reader.accountId)}?incoming=maybe`, readerToken)).statusCode).toBe(400);
      // Every role reads.
      expect((await h.call('GET', url(fixtures.accountId), tokens.ReadOnly)).statusCode).toBe(200);
    });

    it("reads one message, and answers 404 for another account's", async () => {
      const one = await h.call('GET', `${url(reader.accountId)}/${ids.incoming ?? ''}`, readerToken);
      expect(one.json<{ data: Message }>().data).toMatchObject({ id: ids.incoming, direction: 'inbound', outgoing: false, read: false, price: 0 });
      expect((await h.call('GET', `${url(account.accountId)}/${ids.incoming ?? ''}`, token)).statusCode).toBe(404);
      expect((await h.call('GET', `${url(reader.accountId)}/nope`, readerToken)).statusCode).toBe(404);
    });

    it('marks an incoming message read and unread, refuses outgoing ones that did not fail and Read Only', async () => {
      const target = `${url(reader.accountId)}/${ids.incoming ?? ''}`;
      const read = await h.call('PUT', target, readerToken, { read: true });
      expect(read.statusCode, read.body).toBe(200);
      expect(read.json<{ data: Message }>().data.read).toBe(true);
      const events = await outboxEvents(h.database.db, 'messageRead', reader.accountId);
      expect(events).toHaveLength(1);
      expect(events[0]?.data).toMatchObject({ message: { id: ids.incoming, read: true } });
      const unread = await h.call('PUT', target, readerToken, { read: false });
      expect(unread.json<{ data: Message }>().data.read).toBe(false);

      const outgoing = await h.call('PUT', `${url(reader.accountId)}/${ids.first ?? ''}`, readerToken, { read: true });
      expect(outgoing.statusCode).toBe(400);
      expect(outgoing.json()).toEqual({ error: { code: 'bad_request', message: MESSAGE_READ_NOT_UNREADABLE_MESSAGE } });
      // A failed outgoing message is unread until marked read (docs/inbox.md: unread if incoming or errored).
      const failedUrl = `${url(reader.accountId)}/${ids.failed ?? ''}`;
      expect((await h.call('GET', failedUrl, readerToken)).json<{ data: Message }>().data.read).toBe(false);
      const failedRead = await h.call('PUT', failedUrl, readerToken, { read: true });
      expect(failedRead.statusCode, failedRead.body).toBe(200);
      expect(failedRead.json<{ data: Message }>().data.read).toBe(true);
      expect((await h.call('PUT', failedUrl, readerToken, { read: false })).json<{ data: Message }>().data.read).toBe(false);
      expect((await h.call('PUT', target, readerToken, { read: 'yes' })).statusCode).toBe(400);

      // Read Only may not, in its own account either.
      const fixtureContact = await addContact(h.database.db, fixtures.accountId);
      const [fixtureConversation] = await h.database.db
        .insert(conversations)
        .values({ id: uuidv7(), accountId: fixtures.accountId, contactId: fixtureContact.id })
        .returning();
      const incomingId = uuidv7();
      await h.database.db.insert(messages).values({
        id: incomingId,
        accountId: fixtures.accountId,
        conversationId: fixtureConversation?.id ?? '',
        contactId: fixtureContact.id,
        direction: 'inbound',
        fromNumber: fixtureContact.mobileNumber,
        toNumber: '+12025550100',
        status: 'received',
      });
      expect((await h.call('PUT', `${url(fixtures.accountId)}/${incomingId}`, tokens.ReadOnly, { read: true })).statusCode).toBe(403);
      expect((await h.call('PUT', `${url(fixtures.accountId)}/${incomingId}`, tokens.Sender, { read: true })).statusCode).toBe(200);
      // Another account's message is not found.
      expect((await h.call('PUT', `${url(account.accountId)}/${ids.incoming ?? ''}`, token, { read: true })).statusCode).toBe(404);
    });
  });
});
