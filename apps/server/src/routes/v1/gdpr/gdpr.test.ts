import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { PrivacySearchResult } from '@parley/shared';
import type { Queryable } from '../../../db/client.js';
import { auditLog, contactLists, contacts, events, listMembers } from '../../../db/schema/index.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { useRouteHarness } from '../../../test/routeHarness.js';

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
