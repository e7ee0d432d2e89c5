import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONTACT_DUPLICATE_MOBILE_MESSAGE,
  roles,
  type Contact,
  type ContactEventData,
  type Role,
} from '@parley/shared';
import { insertContact, insertListWith } from '../test/testing.js';
import { contacts, listMembers } from '../../../platform/db/schema/index.js';
import { outboxEvents } from '../../../test/accounts.js';
import { startApiHarness, type ApiHarness } from '../../../test/apiHarness.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { createAccount, createUser, roleFixtures } from '../../../test/factories.js';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

describe.each(testDatabaseKinds)('contacts on %s', (kind) => {
  let h: ApiHarness;

  beforeAll(async () => {
    h = await startApiHarness(kind);
  });
  afterAll(async () => {
    await h.close();
  });

  /** A fresh account (default country as given) with one user per role. */
  async function account(overrides: { defaultCountry?: string } = {}) {
    const fixtures = await roleFixtures(h.database.db);
    if (overrides.defaultCountry !== undefined) {
      await h.database.db.execute(sql`update accounts set default_country = ${overrides.defaultCountry} where id = ${fixtures.accountId}`);
    }
    const tokens = {} as Record<Role, string>;
    for (const role of roles) tokens[role] = h.tokenFor(fixtures.users[role]);
    const base = `/v1/accounts/${fixtures.accountId}`;
    const call = (method: Method, path: string, body?: object, role: Role = 'Administrator') =>
      h.call(method, `${base}${path}`, tokens[role], body);
    const create = async (body: object, role: Role = 'Administrator'): Promise<Contact> => {
      const res = await call('POST', '/contacts', body, role);
      expect(res.statusCode, res.body).toBe(201);
      // The contact made, in a list of one, as the hosted product's API answers.
      const answer = res.json<{ success: boolean; data: Contact[] }>();
      expect(answer.success).toBe(true);
      expect(answer.data).toHaveLength(1);
      const [contact] = answer.data;
      if (!contact) throw new Error('no contact in the answer');
      return contact;
    };
    const list = async (query = '', role: Role = 'Administrator') => {
      const res = await call('GET', `/contacts${query}`, undefined, role);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ data: Contact[]; pagination: { totalCount: number; offset: number; limit: number } }>();
    };
    const count = async (): Promise<number> => (await list('?limit=500')).pagination.totalCount;
    return { accountId: fixtures.accountId, tokens, call, create, list, count };
  }

  describe('POST /contacts', () => {
    it('adds a contact with its number normalised for the account country', async () => {
      const a = await account({ defaultCountry: 'GB' });
      const contact = await a.create({
        firstName: ' Ada ',
        lastName: 'Lovelace',
        mobile: { number: '07400 123456' },
        email: 'Ada@Example.TEST',
        tags: ['vip', 'VIP', 'newsletter'],
        attributes: { favouriteColour: 'blue', empty: '' },
      });
      expect(contact).toMatchObject({
        firstName: 'Ada',
        lastName: 'Lovelace',
        mobile: { number: '+447400123456', country: 'GB' },
        email: 'ada@example.test',
        tags: [
          { tag: 'vip', visible: true },
          { tag: 'newsletter', visible: true },
        ],
        attributes: { favouriteColour: 'blue' },
        valid: true,
        lists: [],
      });
      // What the contact does not have is left out, not written null (the hosted product's API does so).
      for (const absent of ['blocked', 'optedOut', 'error', 'numberType']) expect(contact, absent).not.toHaveProperty(absent);
      expect((await a.call('GET', `/contacts/${contact.id}`)).json()).toEqual({ data: contact });

    });

    it('lets Campaign Managers and Senders add contacts and refuses Read Only, adding nothing', async () => {
      const a = await account();
      await a.create({ mobile: { number: '(415) 555-2671' } }, 'CampaignManager');
      await a.create({ mobile: { number: '415 555 2672' } }, 'Sender');
      const refused = await a.call('POST', '/contacts', { mobile: { number: '415 555 2673' } }, 'ReadOnly');
      expect(refused.statusCode).toBe(403);
      expect(await a.count()).toBe(2);
    });

    it('defaults a contact to the account country (US) and takes an international number as written', async () => {
      const a = await account();
      expect((await a.create({ mobile: { number: '(415) 555-2671' } })).mobile).toEqual({ number: '+14155552671', country: 'US' });
      expect((await a.create({ mobile: { number: '+33 6 12 34 56 78' } })).mobile).toEqual({ number: '+33612345678', country: 'FR' });
      expect((await a.create({ mobile: { number: '06 12 34 56 79', country: 'fr' } })).mobile).toEqual({
        number: '+33612345679',
        country: 'FR',
      });
    });

    it('keeps a contact whose number is not valid, marked invalid with the reason', async () => {
      const a = await account();
      const contact = await a.create({ firstName: 'Bad', mobile: { number: '12345' } });
      expect(contact).toMatchObject({
        mobile: { number: '12345', country: 'US' },
        valid: false,
        error: { description: 'Country or Number is not valid' },
      });
      const unknownCountry = await a.create({ mobile: { number: '5551234', country: 'ZZ' } });
      expect(unknownCountry).toMatchObject({ valid: false, error: { description: 'Country is not valid' } });
    });

    it('refuses a second contact with the same number, however it is written, and changes nothing', async () => {
      const a = await account();
      await a.create({ firstName: 'First', mobile: { number: '+14155552671' } });
      for (const number of ['+14155552671', '(415) 555-2671', '415.555.2671']) {
        const res = await a.call('POST', '/contacts', { firstName: 'Second', mobile: { number } });
        expect(res.statusCode, number).toBe(409);
        expect(res.json()).toEqual({ error: { code: 'conflict', message: CONTACT_DUPLICATE_MOBILE_MESSAGE } });
      }
      const { data } = await a.list();
      expect(data.map((c) => c.firstName)).toEqual(['First']);
      expect(await outboxEvents(h.database.db, 'contactCreated', a.accountId)).toHaveLength(1);
    });

    it('refuses bad input with a clear message and adds nothing', async () => {
      const a = await account();
      const cases: [object, string][] = [
        [{}, 'mobile: Number is missing'],
        [{ mobile: { number: '   ' } }, 'mobile.number: Number is missing'],
        [{ mobile: { number: '+14155552671' }, email: 'not-an-email' }, 'email: Invalid email address'],
        [{ mobile: { number: '+14155552671' }, attributes: { 'bad name': 'x' } }, 'Use letters, digits and underscores'],
        [{ mobile: { number: '+14155552671' }, attributes: { firstName: 'x' } }, 'This name is a contact field'],
        [{ mobile: { number: '+14155552671' }, tags: ['a,b'] }, 'no commas'],
        [{ mobile: { number: '+14155552671' }, firstName: 'x'.repeat(101) }, 'firstName: At most 100 characters'],
      ];
      for (const [body, message] of cases) {
        const res = await a.call('POST', '/contacts', body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json<{ error: { code: string; message: string } }>().error.message).toContain(message);
      }
      expect(await a.count()).toBe(0);
      expect((await a.call('GET', '/attributes')).json()).toEqual({ data: [] });
    });

    it("adds a new attribute name to the account's attribute names", async () => {
      const a = await account();
      await a.create({ mobile: { number: '+14155552671' }, attributes: { zeta: '1', Alpha: '2' } });
      await a.create({ mobile: { number: '+14155552672' }, attributes: { alpha2: '3', zeta: '4' } });
      const res = await a.call('GET', '/attributes?v=1', undefined, 'ReadOnly');
      expect(res.json()).toEqual({ data: [{ name: 'Alpha' }, { name: 'alpha2' }, { name: 'zeta' }] });
    });

    it('publishes contactCreated with the contact', async () => {
      const a = await account();
      const contact = await a.create({ firstName: 'Eve', mobile: { number: '+14155552671' } });
      const events = await outboxEvents(h.database.db, 'contactCreated', a.accountId);
      expect(events).toEqual([{ data: { contact } satisfies ContactEventData }]);
    });
  });

  describe('GET /contacts/:id', () => {
    it("answers 404 for another account's contact, a made-up id and a malformed one", async () => {
      const a = await account();
      const other = await account();
      const theirs = await other.create({ mobile: { number: '+14155552671' } });
      for (const id of [theirs.id, '0190c0de-0000-7000-8000-000000000000', 'nope']) {
        const res = await a.call('GET', `/contacts/${id}`);
        expect(res.statusCode, id).toBe(404);
        expect(res.json()).toEqual({ error: { code: 'not_found', message: 'The contact was not found.' } });
      }
    });

    it('shows list memberships', async () => {
      const a = await account();
      const contact = await a.create({ mobile: { number: '+14155552671' } });
      const listId = await insertListWith(h.database.db, a.accountId, [contact.id]);
      const { data } = (await a.call('GET', `/contacts/${contact.id}`, undefined, 'ReadOnly')).json<{ data: Contact }>();
      expect(data.lists).toEqual([
        { id: expect.any(String) as string, listId, status: 'optedIn', optIn: expect.any(String) as string },
      ]);
      expect(data.lists[0]).not.toHaveProperty('optOut');
    });
  });

  describe('PUT /contacts/:id', () => {
    it('replaces the fields sent and keeps the others', async () => {
      const a = await account();
      const contact = await a.create({
        firstName: 'Old',
        lastName: 'Name',
        mobile: { number: '+14155552671' },
        email: 'old@example.test',
        tags: ['a', 'b'],
        attributes: { one: '1', two: '2' },
      });
      const res = await a.call('PUT', `/contacts/${contact.id}`, { firstName: 'New', email: null, tags: ['c'], attributes: { two: '22', three: '3' } }, 'Sender');
      expect(res.statusCode, res.body).toBe(200);
      const { data } = res.json<{ data: Contact }>();
      expect(data).toMatchObject({
        id: contact.id,
        firstName: 'New',
        lastName: 'Name',
        mobile: contact.mobile,
        tags: [{ tag: 'c', visible: true }],
        attributes: { two: '22', three: '3' },
        created: contact.created,
      });
      expect(data).not.toHaveProperty('email');
      expect(Date.parse(data.updated.at)).toBeGreaterThanOrEqual(Date.parse(contact.updated.at));
      expect((await a.call('GET', '/attributes')).json<{ data: { name: string }[] }>().data.map((x) => x.name)).toEqual(['one', 'three', 'two']);
      const events = await outboxEvents(h.database.db, 'contactUpdated', a.accountId);
      expect(events).toEqual([{ data: { contact: data } }]);
    });

    it('renumbers a contact, keeping the country unless a new one is sent, and marks a bad number invalid', async () => {
      const a = await account();
      const contact = await a.create({ mobile: { number: '06 12 34 56 78', country: 'FR' } });
      const renumbered = await a.call('PUT', `/contacts/${contact.id}`, { mobile: { number: '06 12 34 56 79' } });
      expect(renumbered.json<{ data: Contact }>().data.mobile).toEqual({ number: '+33612345679', country: 'FR' });
      const invalid = await a.call('PUT', `/contacts/${contact.id}`, { mobile: { number: '123' } });
      expect(invalid.json<{ data: Contact }>().data).toMatchObject({ valid: false, error: { description: 'Country or Number is not valid' } });
      const fixed = await a.call('PUT', `/contacts/${contact.id}`, { mobile: { number: '+14155552679' } });
      expect(fixed.json<{ data: Contact }>().data).toMatchObject({ valid: true, mobile: { number: '+14155552679', country: 'US' } });
      expect(fixed.json<{ data: Contact }>().data).not.toHaveProperty('error');
    });

    it("refuses another contact's number, bad input, Read Only and another account's contact, changing nothing", async () => {
      const a = await account();
      const first = await a.create({ firstName: 'First', mobile: { number: '+14155552671' } });
      const second = await a.create({ firstName: 'Second', mobile: { number: '+14155552672' } });
      const taken = await a.call('PUT', `/contacts/${second.id}`, { firstName: 'Changed', mobile: { number: '(415) 555-2671' } });
      expect(taken.statusCode).toBe(409);
      expect(taken.json()).toEqual({ error: { code: 'conflict', message: CONTACT_DUPLICATE_MOBILE_MESSAGE } });
      // Sending its own number back is no conflict.
      expect((await a.call('PUT', `/contacts/${first.id}`, { mobile: { number: '+14155552671' } })).statusCode).toBe(200);

      const bad = await a.call('PUT', `/contacts/${second.id}`, { firstName: 'Changed', email: 'nope' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ error: { code: 'validation_failed', message: 'email: Invalid email address' } });
      expect((await a.call('PUT', `/contacts/${second.id}`, { firstName: 'Changed' }, 'ReadOnly')).statusCode).toBe(403);

      const other = await account();
      const theirs = await other.create({ firstName: 'Theirs', mobile: { number: '+14155552673' } });
      expect((await a.call('PUT', `/contacts/${theirs.id}`, { firstName: 'Changed' })).statusCode).toBe(404);

      expect((await a.call('GET', `/contacts/${second.id}`)).json<{ data: Contact }>().data).toEqual(second);
      expect((await other.call('GET', `/contacts/${theirs.id}`)).json<{ data: Contact }>().data).toEqual(theirs);
      expect(await outboxEvents(h.database.db, 'contactUpdated', a.accountId)).toHaveLength(1);
    });
  });

  describe('PUT /contacts/:id/block', () => {
    it('sets the blocked date once, for roles that may block; Read Only and other accounts are refused', async () => {
      const a = await account();
      const contact = await a.create({ mobile: { number: '+14155552671' } });
      expect((await a.call('PUT', `/contacts/${contact.id}/block`, {}, 'ReadOnly')).statusCode).toBe(403);
      const other = await account();
      expect((await other.call('PUT', `/contacts/${contact.id}/block`, {})).statusCode).toBe(404);
      expect((await a.call('GET', `/contacts/${contact.id}`)).json<{ data: Contact }>().data).not.toHaveProperty('blocked');

      const res = await a.call('PUT', `/contacts/${contact.id}/block`, { messageId: '0190c0de-0000-7000-8000-000000000001' }, 'Sender');
      expect(res.statusCode, res.body).toBe(200);
      const blocked = res.json<{ data: Contact }>().data.blocked;
      expect(blocked).toEqual(expect.any(String));
      const again = await a.call('PUT', `/contacts/${contact.id}/block`, undefined, 'CampaignManager');
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json<{ data: Contact }>().data.blocked).toBe(blocked);
      const events = await outboxEvents(h.database.db, 'contactUpdated', a.accountId);
      expect(events).toHaveLength(1);
      expect(events[0]?.data).toMatchObject({ contact: { id: contact.id, blocked }, blockedFromMessageId: '0190c0de-0000-7000-8000-000000000001' });
      expect((await a.call('PUT', `/contacts/${contact.id}/block`, { messageId: 'x' })).statusCode).toBe(400);
    });
  });

  describe('DELETE /contacts/:id and POST /contacts/remove', () => {
    it('removes one contact with its list memberships and publishes contactRemoved', async () => {
      const a = await account();
      const contact = await a.create({ firstName: 'Gone', mobile: { number: '+14155552671' } });
      await insertListWith(h.database.db, a.accountId, [contact.id]);
      expect((await a.call('DELETE', `/contacts/${contact.id}`, undefined, 'ReadOnly')).statusCode).toBe(403);
      const res = await a.call('DELETE', `/contacts/${contact.id}`, undefined, 'Sender');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true });
      expect((await a.call('GET', `/contacts/${contact.id}`)).statusCode).toBe(404);
      expect(await h.database.db.select().from(listMembers).where(eq(listMembers.contactId, contact.id))).toEqual([]);
      const events = await outboxEvents(h.database.db, 'contactRemoved', a.accountId);
      expect(events).toEqual([{ data: { contact: expect.objectContaining({ id: contact.id, firstName: 'Gone' }) as unknown } }]);
      expect((await a.call('DELETE', `/contacts/${contact.id}`)).statusCode).toBe(404);
    });

    it("removes several at once, or none when one id is not the account's", async () => {
      const a = await account();
      const other = await account();
      const mine = [
        await a.create({ mobile: { number: '+14155552671' } }),
        await a.create({ mobile: { number: '+14155552672' } }),
        await a.create({ mobile: { number: '+14155552673' } }),
      ];
      const theirs = await other.create({ mobile: { number: '+14155552674' } });

      const mixed = await a.call('POST', '/contacts/remove', { ids: [mine[0]?.id, theirs.id] });
      expect(mixed.statusCode).toBe(404);
      expect(mixed.json()).toEqual({ error: { code: 'not_found', message: 'One or more of the contacts were not found.' } });
      expect(await a.count()).toBe(3);
      expect(await other.count()).toBe(1);

      expect((await a.call('POST', '/contacts/remove', { ids: [mine[0]?.id] }, 'ReadOnly')).statusCode).toBe(403);
      const empty = await a.call('POST', '/contacts/remove', { ids: [] });
      expect(empty.statusCode).toBe(400);
      expect(empty.json<{ error: { message: string } }>().error.message).toBe('ids: Must select 1 or more');
      expect((await a.call('POST', '/contacts/remove', { ids: ['nope'] })).statusCode).toBe(400);

      const res = await a.call('POST', '/contacts/remove', { ids: [mine[0]?.id, mine[1]?.id, mine[0]?.id] }, 'CampaignManager');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ data: { removed: 2 } });
      expect((await a.list()).data.map((c) => c.id)).toEqual([mine[2]?.id]);
      expect(await outboxEvents(h.database.db, 'contactRemoved', a.accountId)).toHaveLength(2);
    });
  });

  describe('GET /contacts (the table)', () => {
    async function seeded() {
      const a = await account();
      const ada = await a.create({
        firstName: 'Ada',
        lastName: 'Lovelace',
        mobile: { number: '+14155550101' },
        email: 'ada@example.test',
        tags: ['vip', 'math'],
        attributes: { city: 'London', plan: 'Gold' },
      });
      const bob = await a.create({
        firstName: 'bob',
        lastName: 'Babbage',
        mobile: { number: '+14155550102' },
        tags: ['vip'],
        attributes: { city: 'Londonderry' },
      });
      const cy = await a.create({ firstName: 'Cy', lastName: 'Young', mobile: { number: '999' }, email: 'cy@young.test', tags: ['math', '_sync'] });
      await a.call('PUT', `/contacts/${bob.id}/block`, {});
      return { a, ada, bob, cy };
    }
    const ids = (data: Contact[]) => data.map((c) => c.firstName);

    it('pages by 10 by default and up to 500, newest first, for every role', async () => {
      const a = await account();
      for (let i = 0; i < 12; i += 1) await insertContact(h.database.db, a.accountId, { firstName: `C${String(i).padStart(2, '0')}`, createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)) });
      for (const role of roles) {
        const page = await a.list('', role);
        // A full page that is not the last names where the next starts (keyset paging).
        expect(page.pagination).toEqual({ totalCount: 12, offset: 0, limit: 10, next: expect.any(String) as string });
        expect(page.data).toHaveLength(10);
        expect(page.data[0]?.firstName).toBe('C11');
      }
      const second = await a.list('?offset=10&limit=25');
      expect(ids(second.data)).toEqual(['C01', 'C00']);
      expect((await a.list('?pageSize=5')).pagination.limit).toBe(5);
      expect((await a.list('?limit=500')).data).toHaveLength(12);
      for (const bad of ['limit=501', 'limit=0', 'offset=-1', 'orderBy=firstName', 'orderBy=secret-asc', 'valid=maybe', 'listId=nope', 'attribute=city|like|x']) {
        const res = await a.call('GET', `/contacts?${bad}`);
        expect(res.statusCode, bad).toBe(400);
      }
    });

    it('sorts by column-direction, names ignoring case', async () => {
      const { a } = await seeded();
      expect(ids((await a.list('?orderBy=firstName-asc')).data)).toEqual(['Ada', 'bob', 'Cy']);
      expect(ids((await a.list('?orderBy=firstName-desc')).data)).toEqual(['Cy', 'bob', 'Ada']);
      expect(ids((await a.list('?orderBy=lastName-asc')).data)).toEqual(['bob', 'Ada', 'Cy']);
      expect(ids((await a.list('?orderBy=mobile-asc')).data)).toEqual(['Ada', 'bob', 'Cy']);
      expect(ids((await a.list('?orderBy=email-desc')).data)).toEqual(['Cy', 'Ada', 'bob']);
      expect(ids((await a.list('?orderBy=blocked-desc')).data)[0]).toBe('bob');
      expect(ids((await a.list('?orderBy=valid-asc')).data)[0]).toBe('Cy');
      expect(ids((await a.list('?orderBy=created-asc')).data)).toEqual(['Ada', 'bob', 'Cy']);
    });

    it('filters by column, tags, validity, block, attributes, list and search', async () => {
      const { a, ada, cy } = await seeded();
      const cases: [string, string[]][] = [
        ['firstName=AD', ['Ada']],
        ['lastName=bab', ['bob']],
        ['email=young', ['Cy']],
        ['mobile=555-0102', ['bob']],
        ['tags=vip', ['Ada', 'bob']],
        ['tags=vip,math', ['Ada']],
        ['tags=vip&tags=math', ['Ada']],
        ['tags=nothing', []],
        ['valid=false', ['Cy']],
        ['valid=true', ['Ada', 'bob']],
        ['blocked=true', ['bob']],
        ['blocked=false', ['Ada', 'Cy']],
        ['attribute=city|equals|london', ['Ada']],
        ['attribute=city|contains|LONDON', ['Ada', 'bob']],
        ['attribute=city|notEquals|London', ['bob', 'Cy']],
        ['attribute=city|contains|london&attribute=plan|equals|gold', ['Ada']],
        ['q=ada lov', ['Ada']],
        ['q=young.test', ['Cy']],
        ['q=(415) 555-0101', ['Ada']],
        ['q=100%', []],
        ['firstName=&q=&tags=', ['Ada', 'bob', 'Cy']],
      ];
      for (const [query, expected] of cases) {
        const page = await a.list(`?orderBy=firstName-asc&${encodeURI(query)}`);
        expect(ids(page.data), query).toEqual(expected);
        expect(page.pagination.totalCount, query).toBe(expected.length);
      }
      const listId = await insertListWith(h.database.db, a.accountId, [ada.id, cy.id]);
      expect(ids((await a.list(`?orderBy=firstName-asc&listId=${listId}`)).data)).toEqual(['Ada', 'Cy']);
      // Another account's list finds nothing here.
      const other = await account();
      const theirs = await other.create({ mobile: { number: '+14155550199' } });
      const theirList = await insertListWith(h.database.db, other.accountId, [theirs.id]);
      expect((await a.list(`?listId=${theirList}`)).data).toEqual([]);
      // System tags are kept and shown as not visible.
      expect((await a.list('?tags=_sync')).data[0]?.tags).toEqual([
        { tag: 'math', visible: true },
        { tag: '_sync', visible: false },
      ]);
    });

    it('answers 404 for an account the caller has no part in', async () => {
      const a = await account();
      const stranger = await createUser(h.database.db);
      const strangers = await createAccount(h.database.db, { [stranger.id]: 'Administrator' });
      const res = await h.call('GET', `/v1/accounts/${strangers.id}/contacts`, a.tokens.Administrator);
      expect(res.statusCode).toBe(404);
      const csv = await h.call('GET', `/v1/accounts/${strangers.id}/contacts?format=csv`, a.tokens.Administrator);
      expect(csv.statusCode).toBe(404);
    });
  });

  describe('GET /contacts as CSV', () => {
    it("downloads the table's rows with its filters and order, attributes as columns, formulas defused", async () => {
      const a = await account();
      await a.create({
        firstName: '=HYPERLINK("http://evil.test","x")',
        lastName: 'Smith, Jr',
        mobile: { number: '+14155550101' },
        email: 'a@example.test',
        tags: ['vip', 'x'],
        attributes: { note: '@SUM(1+1)', score: '-5', formula: '-2+3', multi: 'line1\nline2' },
      });
      await a.create({ firstName: 'Bea', lastName: '+cmd', mobile: { number: '+14155550102' }, tags: ['vip'] });
      await a.create({ firstName: 'Out', mobile: { number: '+14155550103' } });

      for (const [query, headers] of [
        ['?format=csv&tags=vip&orderBy=firstName-desc', {}],
        ['?tags=vip&orderBy=firstName-desc', { accept: 'text/csv' }],
      ] as const) {
        const res = await h.app.inject({
          method: 'GET',
          url: `/v1/accounts/${a.accountId}/contacts${query}`,
          headers: { authorization: `Bearer ${a.tokens.ReadOnly}`, ...headers },
        });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
        expect(res.headers['content-disposition']).toMatch(/^attachment; filename="contacts-\d{4}-\d{2}-\d{2}\.csv"$/);
        const lines = res.body.split('\r\n');
        expect(lines[0]).toBe('firstName,lastName,mobile,country,email,tags,valid,error,blocked,optedOut,created,updated,formula,multi,note,score');
        expect(lines[1]).toMatch(/^Bea,'\+cmd,'\+14155550102,US,,vip,true,,,,\d{4}-.+Z,\d{4}-.+Z,,,,$/);
        expect(res.body).toContain(`"'=HYPERLINK(""http://evil.test"",""x"")","Smith, Jr",'+14155550101,US,a@example.test,"vip,x",true,`);
        expect(res.body).toMatch(/,'-2\+3,"line1\nline2",'@SUM\(1\+1\),'-5\r\n$/);
        expect(res.body).not.toContain('\r\nOut,');
      }
      const json = await a.call('GET', '/contacts?format=json', undefined, 'ReadOnly');
      expect(json.headers['content-type']).toContain('application/json');
    });

    it('holds every contact of a large account, each once, in the order asked', async () => {
      const a = await account();
      const total = 2600;
      const rows = Array.from({ length: total }, (_, i) => ({
        id: `0190c0de-0000-7000-8000-${String(i).padStart(12, '0')}`,
        accountId: a.accountId,
        firstName: `N${String(i % 50).padStart(2, '0')}`,
        mobileNumber: `+1415200${String(i).padStart(4, '0')}`,
        mobileCountry: 'US',
      }));
      await h.database.db.insert(contacts).values(rows);
      const res = await a.call('GET', '/contacts?format=csv&orderBy=firstName-asc');
      const lines = res.body.trimEnd().split('\r\n').slice(1);
      expect(lines).toHaveLength(total);
      const names = lines.map((l) => l.split(',')[0] ?? '');
      expect(names).toEqual([...names].sort());
      expect(new Set(lines.map((l) => l.split(',')[2])).size).toBe(total);
    });
  });

  describe('GET /tags', () => {
    it('suggests the most used tags for a prefix, at most 10 by default, hiding system tags', async () => {
      const a = await account();
      for (let i = 0; i < 12; i += 1) {
        await insertContact(h.database.db, a.accountId, { tags: [`tag${String(i).padStart(2, '0')}`, ...(i < 3 ? ['team'] : []), '_internal'] });
      }
      const all = await a.call('GET', '/tags', undefined, 'ReadOnly');
      expect(all.statusCode).toBe(200);
      const { data } = all.json<{ data: { tag: string; visible: boolean; contacts: number }[] }>();
      expect(data).toHaveLength(10);
      expect(data[0]).toEqual({ tag: 'team', visible: true, contacts: 3 });
      expect(data.map((t) => t.tag)).not.toContain('_internal');
      const prefixed = await a.call('GET', '/tags?prefix=TAG0&limit=3');
      expect(prefixed.json<{ data: { tag: string }[] }>().data.map((t) => t.tag)).toEqual(['tag00', 'tag01', 'tag02']);
      expect((await a.call('GET', '/tags?prefix=_')).json<{ data: { tag: string }[] }>().data).toEqual([
        { tag: '_internal', visible: false, contacts: 12 },
      ]);
      expect((await a.call('GET', '/tags?prefix=%25')).json<{ data: unknown[] }>().data).toEqual([]);
      expect((await a.call('GET', '/tags?limit=101')).statusCode).toBe(400);
    });
  });
});
