import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { PrivacySearchResult } from '@parley/shared';
import { sendMessages } from '../../messaging/messageSender.js';
import type { Db, Queryable } from '../../../platform/db/client.js';
import {
  accountTransactions,
  auditLog,
  campaignJobRecipients,
  campaignJobs,
  contactLists,
  contacts,
  conversations,
  events,
  listMembers,
  messages,
  type MessageRow,
} from '../../../platform/db/schema/index.js';
import { MessageDispatcher } from '../../messaging/dispatcher.js';
import { RecordingCarrier, registryOf } from '../../messaging/test/dispatcherFixtures.js';
import { refundMessages } from '../../messaging/dispatcherRefunds.js';
import { ledgerAndBalance } from '../../../test/accounts.js';
import { addMessage } from '../../../test/conversations.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { silentLogger } from '../../../test/logger.js';
import { useRouteHarness } from '../../../test/routeHarness.js';
import { addContact, sendingAccount, type SendingAccount } from '../../../test/sendingFixtures.js';

/** A contact with a bit of everything: attributes, tags, a list membership with consent. */
async function insertPerson(q: Queryable, accountId: string, overrides: Partial<typeof contacts.$inferInsert> = {}) {
  const id = randomUUID();
  await q.insert(contacts).values({
    id,
    accountId,
    firstName: 'Maria',
    lastName: 'Lopez',
    mobileNumber: '+14155552671',
    mobileCountry: 'US',
    email: 'maria@example.test',
    attributes: { plan: 'gold', note: '=HYPERLINK("http://evil.example","click")' },
    tags: ['vip', 'patient'],
    ...overrides,
  });
  const listId = randomUUID();
  await q.insert(contactLists).values({ id: listId, accountId, name: 'Recall reminders' });
  const optInAt = new Date('2026-03-01T10:00:00.000Z');
  await q.insert(listMembers).values({ id: randomUUID(), accountId, listId, contactId: id, status: 'optedIn', optInAt, consentSource: 'paper form' });
  return { id, listId, optInAt };
}

/** A minimal CSV reader for the test: quoted cells with doubled quotes, CRLF rows. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  return rows;
}

/** One message to the contact through the sending engine: charged through the ledger, queued. */
function send(db: Db, account: SendingAccount, contactId: string, jobId: string | null = null) {
  return sendMessages(db, {
    accountId: account.accountId,
    actor: { kind: 'user', userId: account.adminId },
    contactIds: [contactId],
    template: 'Your table is ready',
    jobId,
  });
}

/**
 * The contact's history in every status a message has: a closed conversation (delivered, received) and an
 * open one with two queued messages (one a campaign's), one being handed to the carrier, one sent, one
 * delivered, one undelivered, one failed and refunded as the dispatcher does, and one received.
 */
async function messagesInEveryStatus(db: Db, account: SendingAccount, contactId: string) {
  const outgoing = async (status: MessageRow['status'] | null, jobId: string | null = null): Promise<MessageRow> => {
    const [row] = (await send(db, account, contactId, jobId)).messages;
    if (!row) throw new Error('nothing was queued');
    if (status === null) return row;
    const [changed] = await db
      .update(messages)
      .set({ status, claimedAt: status === 'sending' ? new Date() : null, sentAt: status === 'sending' ? null : new Date() })
      .where(eq(messages.id, row.id))
      .returning();
    if (!changed) throw new Error('the message is gone');
    return changed;
  };
  const incoming = (row: MessageRow) =>
    addMessage(db, account, { id: row.conversationId, contactId, mobile: row.toNumber }, { direction: 'inbound', status: 'received' });

  const first = await outgoing('delivered');
  await incoming(first);
  const [older] = await db.update(conversations).set({ closedAt: new Date() }).where(eq(conversations.id, first.conversationId)).returning();
  if (!older) throw new Error('no conversation');

  const rows = [
    await outgoing(null),
    await outgoing(null, randomUUID()),
    await outgoing('sending'),
    await outgoing('sent'),
    await outgoing('delivered'),
    await outgoing('undelivered'),
  ];
  const toFail = await outgoing(null);
  const failed = await db.transaction(async (tx) => {
    const [marked] = await tx.update(messages).set({ status: 'failed', refundedAt: new Date() }).where(eq(messages.id, toFail.id)).returning();
    if (!marked) throw new Error('the message is gone');
    await refundMessages(tx, [marked]);
    return marked;
  });
  const received = await incoming(failed);
  return { older, statuses: [...rows, failed, received].map((r) => r.status) };
}

/** A finished File Upload execution that kept the contact's uploaded row and, for a left-out row, its number. */
async function campaignRemembering(db: Db, accountId: string, person: { id: string; mobileNumber: string }): Promise<string> {
  const id = randomUUID();
  await db.insert(campaignJobs).values({
    id,
    accountId,
    status: 'done',
    phoneNumberFilter: {},
    invalid: [
      { reason: 'optedOut', description: 'Opted out', contact: { id: person.id }, mobile: person.mobileNumber, row: 2 },
      { reason: 'blocked', description: 'Blocked', contact: { id: 'someone-else' }, mobile: '+14155550000', row: 3 },
    ],
  });
  await db.insert(campaignJobRecipients).values({ jobId: id, position: 1, contactId: person.id, data: { mobile: person.mobileNumber, visit: 'Tuesday' } });
  return id;
}

describe.each(testDatabaseKinds)('privacy (gdpr) on %s', (kind) => {
  const { h, fixtures, tokens, ownAccount } = useRouteHarness(kind);

  const base = (acc: string) => `/v1/accounts/${acc}/gdpr`;

  const auditRows = (accountId: string) =>
    h.database.db.select().from(auditLog).where(eq(auditLog.accountId, accountId)).orderBy(auditLog.id);

  describe('search', () => {
    it('finds a contact by number however it is typed, with what a removal would take', async () => {
      const { account, token } = await ownAccount();
      const person = await insertPerson(h.database.db, account.id);
      for (const query of ['number=(415)%20555-2671&country=US', 'number=415.555.2671', 'number=%2B1%20415%20555%202671&country=GB']) {
        const res = await h.call('GET', `${base(account.id)}/search?${query}`, token);
        expect(res.statusCode, query).toBe(200);
        const { data } = res.json<{ data: PrivacySearchResult }>();
        expect(data?.contact).toMatchObject({ id: person.id, firstName: 'Maria', mobile: { number: '+14155552671', country: 'US' } });
        expect(data?.holdings).toEqual({ lists: 1, conversations: 0, messages: 0 });
      }
      expect((await h.call('GET', `${base(account.id)}/search?number=4155550000&country=US`, token)).json()).toEqual({ data: null });
    });

    it('finds an invalid contact by the number as it was given, and refuses a missing number', async () => {
      const { account, token } = await ownAccount();
      const person = await insertPerson(h.database.db, account.id, { mobileNumber: '12-ABC', valid: false, errorDescription: 'Country or Number is not valid' });
      const found = await h.call('GET', `${base(account.id)}/search?number=%2012-ABC%20`, token);
      expect(found.json<{ data: PrivacySearchResult }>().data?.contact.id).toBe(person.id);
      for (const query of ['', 'number=', 'number=%20%20']) {
        const res = await h.call('GET', `${base(account.id)}/search?${query}`, token);
        expect(res.statusCode, query).toBe(400);
        expect(res.json<{ error: { message: string } }>().error.message).toContain('number: Number is missing');
      }
    });

    it("never finds another account's contact", async () => {
      const mine = await ownAccount();
      const theirs = await ownAccount();
      await insertPerson(h.database.db, theirs.account.id);
      expect((await h.call('GET', `${base(mine.account.id)}/search?number=4155552671`, mine.token)).json()).toEqual({ data: null });
      expect((await h.call('GET', `${base(theirs.account.id)}/search?number=4155552671`, mine.token)).statusCode).toBe(404);
    });
  });

  describe('download', () => {
    it('answers everything held as CSV, cells safe from formulas, and writes the audit log', async () => {
      const { account, admin, token } = await ownAccount();
      const person = await insertPerson(h.database.db, account.id, { firstName: '+cmd|calc', lastName: 'Lopez, Jr.' });
      const res = await h.call('GET', `${base(account.id)}/download/${person.id}`, token);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toBe(`attachment; filename="contact-${person.id}.csv"`);
      expect(res.body).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
      const rows = parseCsv(res.body);
      expect(rows[0]).toEqual(['record', 'recordId', 'field', 'value']);
      const value = (record: string, field: string) => rows.find((r) => r[0] === record && r[2] === field)?.[3];
      expect(value('contact', 'firstName')).toBe("'+cmd|calc");
      expect(value('contact', 'lastName')).toBe('Lopez, Jr.');
      expect(value('contact', 'mobile')).toBe("'+14155552671");
      expect(value('contact', 'email')).toBe('maria@example.test');
      expect(value('attribute', 'plan')).toBe('gold');
      expect(rows.filter((r) => r[0] === 'tag').map((r) => r[3])).toEqual(['vip', 'patient']);
      expect(value('listMembership', 'list')).toBe('Recall reminders');
      expect(value('listMembership', 'listId')).toBe(person.listId);
      expect(value('listMembership', 'status')).toBe('optedIn');
      expect(value('listMembership', 'optIn')).toBe(person.optInAt.toISOString());
      expect(value('listMembership', 'consentSource')).toBe('paper form');
      expect(rows.filter((r) => r[0] === 'contact').every((r) => r[1] === person.id)).toBe(true);

      expect(await auditRows(account.id)).toEqual([
        expect.objectContaining({
          actorUserId: admin.id,
          actorClientId: null,
          action: 'gdpr.download',
          subjectType: 'contact',
          subjectId: person.id,
          details: { rows: rows.length - 1 },
        }),
      ]);
    });

    it('records an API client as the actor', async () => {
      const { account } = await ownAccount();
      const person = await insertPerson(h.database.db, account.id);
      const clientId = `pk_${randomUUID()}`;
      const token = h.authenticator.add({ userId: clientId, clientId, accountIds: [account.id] });
      expect((await h.call('GET', `${base(account.id)}/download/${person.id}`, token)).statusCode).toBe(200);
      expect(await auditRows(account.id)).toEqual([expect.objectContaining({ actorUserId: null, actorClientId: clientId, action: 'gdpr.download' })]);
    });
  });

  describe('remove', () => {
    it('removes the contact and everything tied to it, answers the counts, audits and publishes contactRemoved', async () => {
      const { account, admin, token } = await ownAccount();
      const person = await insertPerson(h.database.db, account.id);
      const keep = await insertPerson(h.database.db, account.id, { mobileNumber: '+14155552672' });
      // An event about the contact that was already delivered carries its data: it goes too.
      await h.database.db.insert(events).values([
        { type: 'contactCreated', accountId: account.id, data: { contact: { id: person.id, firstName: 'Maria' } }, dispatchedAt: new Date() },
        { type: 'contactCreated', accountId: account.id, data: { contact: { id: keep.id } }, dispatchedAt: new Date() },
      ]);

      const res = await h.call('DELETE', `${base(account.id)}/remove/${person.id}`, token);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: { removed: { contacts: 1, conversations: 0, messages: 0 } } });

      expect(await h.database.db.select().from(contacts).where(eq(contacts.id, person.id))).toEqual([]);
      expect(await h.database.db.select().from(listMembers).where(eq(listMembers.contactId, person.id))).toEqual([]);
      expect((await h.database.db.select().from(contacts).where(eq(contacts.accountId, account.id))).map((c) => c.id)).toEqual([keep.id]);
      // The list itself is the account's, not the person's.
      expect(await h.database.db.select({ id: contactLists.id }).from(contactLists).where(eq(contactLists.id, person.listId))).toEqual([{ id: person.listId }]);

      const about = (id: string) =>
        h.database.db
          .select({ type: events.type, data: events.data })
          .from(events)
          .where(and(eq(events.accountId, account.id), sql`${events.data} -> 'contact' ->> 'id' = ${id}`));
      expect(await about(person.id)).toEqual([
        { type: 'contactRemoved', data: { contact: expect.objectContaining({ id: person.id, mobile: { number: '+14155552671', country: 'US' } }) as unknown } },
      ]);
      expect(await about(keep.id)).toHaveLength(1);

      expect(await auditRows(account.id)).toEqual([
        expect.objectContaining({
          actorUserId: admin.id,
          action: 'gdpr.remove',
          subjectType: 'contact',
          subjectId: person.id,
          details: { removed: { contacts: 1, conversations: 0, messages: 0 } },
        }),
      ]);

      const again = await h.call('DELETE', `${base(account.id)}/remove/${person.id}`, token);
      expect(again.statusCode).toBe(404);
      expect(again.json()).toEqual({ error: { code: 'not_found', message: 'The contact was not found.' } });
      expect((await h.call('GET', `${base(account.id)}/download/${person.id}`, token)).statusCode).toBe(404);
      expect(await auditRows(account.id)).toHaveLength(1);
    });

    it('removes and counts every conversation and message of the contact whatever its status, and refunds what was still queued', async () => {
      const db = h.database.db;
      const account = await sendingAccount(db, { balance: '10' });
      const token = h.tokenFor(account.adminId);
      const person = await addContact(db, account.accountId, { firstName: 'Maria', senderPhoneNumberId: account.numberId });
      const bystander = await addContact(db, account.accountId, { firstName: 'Omar', senderPhoneNumberId: account.numberId });
      const { older, statuses } = await messagesInEveryStatus(db, account, person.id);
      const [waiting] = (await send(db, account, bystander.id)).messages;

      // What the search says a removal would take is what the removal takes.
      const found = await h.call('GET', `${base(account.accountId)}/search?number=${encodeURIComponent(person.mobileNumber)}`, token);
      expect(found.json<{ data: PrivacySearchResult }>().data?.holdings).toEqual({ lists: 0, conversations: 2, messages: 10 });
      expect(statuses.sort()).toEqual(['delivered', 'failed', 'queued', 'queued', 'received', 'sending', 'sent', 'undelivered']);
      // The download holds the same: each conversation and message, with what was written.
      const held = parseCsv((await h.call('GET', `${base(account.accountId)}/download/${person.id}`, token)).body);
      expect(new Set(held.filter((r) => r[0] === 'conversation').map((r) => r[1])).size).toBe(2);
      expect(held.filter((r) => r[0] === 'message' && r[2] === 'text').map((r) => r[3])).toEqual([
        'Your table is ready',
        'Hello there',
        ...Array<string>(7).fill('Your table is ready'),
        'Hello there',
      ]);
      // What a campaign kept of them (an uploaded row, the number of a recipient left out) and a delivered event
      // carrying one of their messages whole.
      const jobId = await campaignRemembering(db, account.accountId, person);
      await db.insert(events).values({
        type: 'messageReceived',
        accountId: account.accountId,
        data: { message: { id: randomUUID(), contact: { id: person.id }, message: 'Hello there' } },
        dispatchedAt: new Date(),
      });
      const before = await ledgerAndBalance(db, account.accountId);

      const res = await h.call('DELETE', `${base(account.accountId)}/remove/${person.id}`, token);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: { removed: { contacts: 1, conversations: 2, messages: 10 } } });
      expect(await db.select({ id: messages.id }).from(messages).where(eq(messages.contactId, person.id))).toEqual([]);
      expect(await db.select({ id: conversations.id }).from(conversations).where(eq(conversations.contactId, person.id))).toEqual([]);
      expect(older.closedAt).not.toBeNull();
      expect(await auditRows(account.accountId)).toEqual([
        expect.objectContaining({ action: 'gdpr.download', details: { rows: held.length - 1 } }),
        expect.objectContaining({ action: 'gdpr.remove', details: { removed: { contacts: 1, conversations: 2, messages: 10 } } }),
      ]);

      // The two queued messages (one a campaign's) were charged and never went out: their cent each comes back
      // through the ledger; the failed one had been refunded already, and the others reached the carrier.
      const after = await ledgerAndBalance(db, account.accountId);
      expect(after).toEqual({ ledger: after.balance, balance: (Number(before.balance) + 0.02).toFixed(4) });
      const entries = await db.select().from(accountTransactions).where(eq(accountTransactions.accountId, account.accountId));
      expect(entries.filter((e) => e.kind === 'refund').map((e) => [e.amount, e.description])).toEqual([
        ['0.0100', 'Refund: 1 message was not sent'],
        ['0.0200', 'Refund: 2 messages to a removed contact were not sent'],
      ]);
      // The ledger keeps the amounts, not the removed contact's number; nor do the campaign and the events.
      expect(entries.filter((e) => e.description.includes(person.mobileNumber))).toEqual([]);
      expect(entries.filter((e) => e.description === 'Message to a removed contact')).toHaveLength(8);
      const [job] = await db.select().from(campaignJobs).where(eq(campaignJobs.id, jobId));
      expect(job?.invalid).toEqual([
        { reason: 'optedOut', description: 'Opted out', contact: { id: person.id }, row: 2 },
        { reason: 'blocked', description: 'Blocked', contact: { id: 'someone-else' }, mobile: '+14155550000', row: 3 },
      ]);
      expect(await db.select({ data: campaignJobRecipients.data }).from(campaignJobRecipients).where(eq(campaignJobRecipients.jobId, jobId))).toEqual([
        { data: null },
      ]);
      expect(await db.select().from(events).where(sql`${events.data} -> 'message' -> 'contact' ->> 'id' = ${person.id}`)).toEqual([]);

      // Nothing of the removed contact is sent afterwards; the bystander's message still goes.
      const carrier = new RecordingCarrier('simulator');
      await new MessageDispatcher({ database: h.database, carriers: registryOf(carrier), log: silentLogger() }).dispatchOnce();
      expect(carrier.submits.map((m) => m.to)).not.toContain(person.mobileNumber);
      expect(carrier.submits.map((m) => m.id)).toContain(waiting?.id);
    });

    it("answers 404 for another account's contact, an unknown and a malformed id, and changes and records nothing", async () => {
      const mine = await ownAccount();
      const theirs = await ownAccount();
      const person = await insertPerson(h.database.db, theirs.account.id);
      for (const id of [person.id, randomUUID(), 'not-a-uuid']) {
        for (const res of [
          await h.call('GET', `${base(mine.account.id)}/download/${id}`, mine.token),
          await h.call('DELETE', `${base(mine.account.id)}/remove/${id}`, mine.token),
        ]) {
          expect(res.statusCode, id).toBe(404);
          expect(res.json()).toEqual({ error: { code: 'not_found', message: 'The contact was not found.' } });
        }
      }
      expect((await h.call('DELETE', `${base(theirs.account.id)}/remove/${person.id}`, mine.token)).statusCode).toBe(404);
      expect(await h.database.db.select({ id: contacts.id }).from(contacts).where(eq(contacts.id, person.id))).toEqual([{ id: person.id }]);
      expect(await auditRows(mine.account.id)).toEqual([]);
      expect(await auditRows(theirs.account.id)).toEqual([]);
    });
  });

  it('is for administrators only: every other role is refused and nothing is recorded', async () => {
    const person = await insertPerson(h.database.db, fixtures.accountId, { mobileNumber: '+14155552680' });
    for (const role of ['CampaignManager', 'Sender', 'ReadOnly'] as const) {
      for (const res of [
        await h.call('GET', `${base(fixtures.accountId)}/search?number=4155552680`, tokens[role]),
        await h.call('GET', `${base(fixtures.accountId)}/download/${person.id}`, tokens[role]),
        await h.call('DELETE', `${base(fixtures.accountId)}/remove/${person.id}`, tokens[role]),
      ]) {
        expect(res.statusCode, role).toBe(403);
        expect(res.json<{ error: { code: string } }>().error.code).toBe('forbidden');
      }
    }
    expect(await auditRows(fixtures.accountId)).toEqual([]);
    const found = await h.call('GET', `${base(fixtures.accountId)}/search?number=4155552680`, tokens.Administrator);
    expect(found.json<{ data: PrivacySearchResult }>().data?.contact.id).toBe(person.id);
    expect((await h.call('DELETE', `${base(fixtures.accountId)}/remove/${person.id}`, tokens.Administrator)).statusCode).toBe(200);
    expect((await h.call('GET', `${base(fixtures.accountId)}/search?number=4155552680`, undefined)).statusCode).toBe(401);
  });
});
