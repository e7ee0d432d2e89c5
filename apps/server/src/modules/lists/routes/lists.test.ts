import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { LIST_NAME_TAKEN_MESSAGE, roles, type ListMember, type ListRecord, type Pagination } from '@parley/shared';
import type { Queryable } from '../../../platform/db/client.js';
import { contacts, listMembers } from '../../../platform/db/schema/index.js';
import { outboxEvents } from '../../../test/accounts.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { useRouteHarness } from '../../../test/routeHarness.js';

let numberSeq = 0;
/** A contact stored directly, with a unique valid-looking US number. */
async function insertContact(q: Queryable, accountId: string, firstName = 'Dana'): Promise<string> {
  const id = randomUUID();
  numberSeq += 1;
  await q.insert(contacts).values({
    id,
    accountId,
    firstName,
    lastName: 'Lee',
    mobileNumber: `+1415${String(Date.now() % 1e7).padStart(7, '0')}${String(numberSeq)}`,
    mobileCountry: 'US',
  });
  return id;
}

describe.each(testDatabaseKinds)('lists on %s', (kind) => {
  const { h, fixtures, tokens, ownAccount } = useRouteHarness(kind);

  const listsUrl = (acc: string) => `/v1/accounts/${acc}/lists`;
  const membersUrl = (acc: string, listId: string) => `${listsUrl(acc)}/${listId}/contacts`;

  async function createList(acc: string, token: string, name: string): Promise<ListRecord> {
    const res = await h.call('POST', listsUrl(acc), token, { name });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ data: ListRecord }>().data;
  }

  const allLists = async (acc: string, token: string) =>
    (await h.call('GET', `${listsUrl(acc)}?limit=100`, token)).json<{ data: ListRecord[]; pagination: Pagination }>();

  const members = async (acc: string, listId: string, token: string, query = '') =>
    (await h.call('GET', `${membersUrl(acc, listId)}${query}`, token)).json<{ data: ListMember[]; pagination: Pagination }>();

  describe('lists', () => {
    it('creates, lists by name with member counts and paging, reads, renames and removes', async () => {
      const { account, token } = await ownAccount();
      const vip = await createList(account.id, token, '  VIP  ');
      expect(vip).toEqual({
        id: expect.any(String) as string,
        name: 'VIP',
        memberCount: 0,
        created: { at: expect.any(String) as string },
        updated: { at: expect.any(String) as string },
      });
      await createList(account.id, token, 'alpha');
      await createList(account.id, token, 'Newsletter');

      const all = await allLists(account.id, token);
      expect(all.data.map((l) => l.name)).toEqual(['alpha', 'Newsletter', 'VIP']);
      expect(all.pagination).toEqual({ totalCount: 3, offset: 0, limit: 100 });
      const page = (await h.call('GET', `${listsUrl(account.id)}?offset=1&limit=1`, token)).json<{ data: ListRecord[]; pagination: Pagination }>();
      expect(page.data.map((l) => l.name)).toEqual(['Newsletter']);
      expect(page.pagination).toEqual({ totalCount: 3, offset: 1, limit: 1 });
      expect((await h.call('GET', listsUrl(account.id), token)).json()).toMatchObject({ pagination: { limit: 10 } });

      const one = await h.call('GET', `${listsUrl(account.id)}/${vip.id}`, token);
      expect(one.json()).toEqual({ data: vip });

      const renamed = await h.call('PUT', `${listsUrl(account.id)}/${vip.id}`, token, { name: 'VIP customers' });
      expect(renamed.statusCode).toBe(200);
      expect(renamed.json()).toMatchObject({ data: { id: vip.id, name: 'VIP customers', memberCount: 0 } });
      // Renaming to its own name in another case is not a clash.
      expect((await h.call('PUT', `${listsUrl(account.id)}/${vip.id}`, token, { name: 'vip CUSTOMERS' })).statusCode).toBe(200);

      const removed = await h.call('DELETE', `${listsUrl(account.id)}/${vip.id}`, token);
      expect(removed.statusCode).toBe(204);
      expect(removed.body).toBe('');
      expect((await h.call('GET', `${listsUrl(account.id)}/${vip.id}`, token)).statusCode).toBe(404);
      expect((await h.call('DELETE', `${listsUrl(account.id)}/${vip.id}`, token)).statusCode).toBe(404);
      expect((await allLists(account.id, token)).pagination.totalCount).toBe(2);
    });

    it('refuses a blank or duplicate name with a clear message and changes nothing', async () => {
      const { account, token } = await ownAccount();
      const list = await createList(account.id, token, 'Patients');
      const cases: [object, number, string][] = [
        [{}, 400, 'name: Required'],
        [{ name: '   ' }, 400, 'name: Required'],
        [{ name: 'x'.repeat(101) }, 400, 'name: At most 100 characters'],
        [{ name: 'PATIENTS' }, 409, LIST_NAME_TAKEN_MESSAGE],
      ];
      for (const [body, status, message] of cases) {
        const res = await h.call('POST', listsUrl(account.id), token, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(status);
        expect(res.json<{ error: { message: string } }>().error.message).toContain(message);
      }
      const other = await createList(account.id, token, 'Staff');
      const clash = await h.call('PUT', `${listsUrl(account.id)}/${other.id}`, token, { name: 'patients' });
      expect(clash.statusCode).toBe(409);
      expect(clash.json()).toEqual({ error: { code: 'conflict', message: LIST_NAME_TAKEN_MESSAGE } });
      expect((await h.call('PUT', `${listsUrl(account.id)}/${other.id}`, token, { name: '' })).statusCode).toBe(400);
      expect((await allLists(account.id, token)).data.map((l) => l.name)).toEqual([list.name, 'Staff']);
      expect((await h.call('GET', `${listsUrl(account.id)}?limit=0`, token)).statusCode).toBe(400);
    });

    it('lets every role read, and all but Read Only write', async () => {
      for (const role of roles) {
        const res = await h.call('POST', listsUrl(fixtures.accountId), tokens[role], { name: `By ${role}` });
        expect(res.statusCode, role).toBe(role === 'ReadOnly' ? 403 : 201);
      }
      for (const role of roles) {
        const res = await h.call('GET', listsUrl(fixtures.accountId), tokens[role]);
        expect(res.statusCode, role).toBe(200);
        expect(res.json<{ data: ListRecord[] }>().data.map((l) => l.name)).toEqual(['By Administrator', 'By CampaignManager', 'By Sender']);
      }
      const [first] = (await allLists(fixtures.accountId, tokens.ReadOnly)).data;
      if (!first) throw new Error('no list');
      expect((await h.call('PUT', `${listsUrl(fixtures.accountId)}/${first.id}`, tokens.ReadOnly, { name: 'Nope' })).statusCode).toBe(403);
      expect((await h.call('DELETE', `${listsUrl(fixtures.accountId)}/${first.id}`, tokens.ReadOnly)).statusCode).toBe(403);
      expect((await h.call('GET', `${listsUrl(fixtures.accountId)}/${first.id}`, tokens.ReadOnly)).statusCode).toBe(200);
      expect((await h.call('DELETE', `${listsUrl(fixtures.accountId)}/${first.id}`, tokens.Sender)).statusCode).toBe(204);
      expect((await h.call('GET', listsUrl(fixtures.accountId), undefined)).statusCode).toBe(401);
    });

    it("answers 404 for another account's list, an unknown and a malformed id, and leaves it alone", async () => {
      const mine = await ownAccount();
      const theirs = await ownAccount();
      const list = await createList(theirs.account.id, theirs.token, 'Theirs');
      const contactId = await insertContact(h.database.db, theirs.account.id);
      await h.call('POST', membersUrl(theirs.account.id, list.id), theirs.token, { contactIds: [contactId] });
      for (const id of [list.id, randomUUID(), 'not-a-uuid']) {
        const attempts = [
          await h.call('GET', `${listsUrl(mine.account.id)}/${id}`, mine.token),
          await h.call('PUT', `${listsUrl(mine.account.id)}/${id}`, mine.token, { name: 'Mine now' }),
          await h.call('DELETE', `${listsUrl(mine.account.id)}/${id}`, mine.token),
          await h.call('GET', membersUrl(mine.account.id, id), mine.token),
          await h.call('POST', membersUrl(mine.account.id, id), mine.token, { contactIds: [contactId] }),
          await h.call('PUT', `${membersUrl(mine.account.id, id)}/${contactId}`, mine.token, { status: 'optedOut' }),
          await h.call('DELETE', `${membersUrl(mine.account.id, id)}/${contactId}`, mine.token),
        ];
        for (const res of attempts) {
          expect(res.statusCode, `${id} ${res.body}`).toBe(404);
          expect(res.json()).toEqual({ error: { code: 'not_found', message: 'The list was not found.' } });
        }
      }
      expect((await h.call('GET', listsUrl(theirs.account.id), mine.token)).statusCode).toBe(404);
      expect(await members(theirs.account.id, list.id, theirs.token)).toMatchObject({
        data: [{ contactId, status: 'subscribed' }],
        pagination: { totalCount: 1 },
      });
      expect((await allLists(theirs.account.id, theirs.token)).data).toEqual([expect.objectContaining({ name: 'Theirs', memberCount: 1 })]);
    });
  });

  describe('members', () => {
    it('adds contacts, opted in now when asked, and keeps members already there as they were', async () => {
      const { account, token } = await ownAccount();
      const list = await createList(account.id, token, 'Clinic news');
      const ann = await insertContact(h.database.db, account.id, 'Ann');
      const bob = await insertContact(h.database.db, account.id, 'Bob');
      const before = Date.now();
      const first = await h.call('POST', membersUrl(account.id, list.id), token, { contactIds: [ann, ann] });
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({ data: { added: 1, alreadyMembers: 0 } });
      const second = await h.call('POST', membersUrl(account.id, list.id), token, { contactIds: [ann, bob], optIn: true, consentSource: 'paper form' });
      expect(second.json()).toEqual({ data: { added: 1, alreadyMembers: 1 } });

      const page = await members(account.id, list.id, token);
      expect(page.pagination).toEqual({ totalCount: 2, offset: 0, limit: 10 });
      // Newest first: Bob was added last.
      const [bobMember, annMember] = page.data;
      expect(bobMember).toMatchObject({
        listId: list.id,
        contactId: bob,
        status: 'optedIn',
        optOut: null,
        consentSource: 'paper form',
        contact: { id: bob, firstName: 'Bob', lastName: 'Lee', mobile: { country: 'US' }, email: null, valid: true },
      });
      expect(Date.parse(bobMember?.optIn ?? '')).toBeGreaterThanOrEqual(before - 1000);
      expect(annMember).toMatchObject({ contactId: ann, status: 'subscribed', optIn: null, optOut: null, consentSource: null });
      expect((await allLists(account.id, token)).data[0]?.memberCount).toBe(2);

      const optedIn = await members(account.id, list.id, token, '?status=optedIn');
      expect(optedIn.data.map((m) => m.contactId)).toEqual([bob]);
      expect(optedIn.pagination.totalCount).toBe(1);
      const second2 = await members(account.id, list.id, token, '?limit=1&offset=1');
      expect(second2.data.map((m) => m.contactId)).toEqual([ann]);
      expect(second2.pagination).toEqual({ totalCount: 2, offset: 1, limit: 1 });
      expect((await h.call('GET', `${membersUrl(account.id, list.id)}?status=gone`, token)).statusCode).toBe(400);
    });

    it('adds all or nothing: a contact of another account or an unknown one answers 404 and adds no one', async () => {
      const { account, token } = await ownAccount();
      const other = await ownAccount();
      const list = await createList(account.id, token, 'Mixed');
      const mine = await insertContact(h.database.db, account.id);
      const theirs = await insertContact(h.database.db, other.account.id);
      for (const foreign of [theirs, randomUUID()]) {
        const res = await h.call('POST', membersUrl(account.id, list.id), token, { contactIds: [mine, foreign] });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ error: { code: 'not_found', message: 'The contact was not found.' } });
      }
      const bad: [object, string][] = [
        [{}, 'contactIds: Must select 1 or more'],
        [{ contactIds: [] }, 'contactIds: Must select 1 or more'],
        [{ contactIds: ['nope'] }, 'Not a contact id'],
        [{ contactIds: [mine], optIn: 'yes' }, 'optIn: Use true or false'],
      ];
      for (const [body, message] of bad) {
        const res = await h.call('POST', membersUrl(account.id, list.id), token, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json<{ error: { message: string } }>().error.message).toContain(message);
      }
      expect((await members(account.id, list.id, token)).pagination.totalCount).toBe(0);
    });

    it('opts a member out and in with dates, keeps the date of a repeated request, and takes them off the list', async () => {
      const { account, token } = await ownAccount();
      const list = await createList(account.id, token, 'Reminders');
      const contactId = await insertContact(h.database.db, account.id);
      await h.call('POST', membersUrl(account.id, list.id), token, { contactIds: [contactId], optIn: true });
      const url = `${membersUrl(account.id, list.id)}/${contactId}`;

      const out = await h.call('PUT', url, token, { status: 'optedOut' });
      expect(out.statusCode).toBe(200);
      const outMember = out.json<{ data: ListMember }>().data;
      expect(outMember).toMatchObject({ contactId, status: 'optedOut', consentSource: 'manual' });
      expect(outMember.optOut).not.toBeNull();
      expect(outMember.optIn).not.toBeNull();

      const again = await h.call('PUT', url, token, { status: 'optedOut', consentSource: 'reply STOP' });
      expect(again.json<{ data: ListMember }>().data).toEqual(outMember);

      const back = await h.call('PUT', url, token, { status: 'optedIn', consentSource: 'phone call' });
      const backMember = back.json<{ data: ListMember }>().data;
      expect(backMember).toMatchObject({ status: 'optedIn', optOut: outMember.optOut, consentSource: 'phone call' });
      expect(Date.parse(backMember.optIn ?? '')).toBeGreaterThanOrEqual(Date.parse(outMember.optIn ?? ''));
      // Each change went out once (the repeated opt-out changed nothing, so published nothing).
      expect((await outboxEvents(h.database.db, 'listOptOut', account.id)).map((e) => e.data)).toEqual([
        { list: { id: list.id }, contact: { id: contactId }, status: 'optedOut', at: outMember.optOut, consentSource: 'manual' },
      ]);
      expect((await outboxEvents(h.database.db, 'listOptIn', account.id)).map((e) => e.data)).toEqual([
        { list: { id: list.id }, contact: { id: contactId }, status: 'optedIn', at: backMember.optIn, consentSource: 'phone call' },
      ]);

      for (const body of [{}, { status: 'subscribed' }, { status: 'optedIn', consentSource: 'x'.repeat(201) }]) {
        expect((await h.call('PUT', url, token, body)).statusCode, JSON.stringify(body)).toBe(400);
      }
      const stranger = await insertContact(h.database.db, account.id);
      const notMember = await h.call('PUT', `${membersUrl(account.id, list.id)}/${stranger}`, token, { status: 'optedIn' });
      expect(notMember.statusCode).toBe(404);
      expect(notMember.json()).toEqual({ error: { code: 'not_found', message: 'The contact on this list was not found.' } });

      expect((await h.call('DELETE', url, token)).statusCode).toBe(204);
      expect((await h.call('DELETE', url, token)).statusCode).toBe(404);
      expect((await members(account.id, list.id, token)).pagination.totalCount).toBe(0);
      const [stillThere] = await h.database.db.select().from(contacts).where(eq(contacts.id, contactId));
      expect(stillThere?.id).toBe(contactId);
    });

    it('removes the memberships with the list, never the contacts', async () => {
      const { account, token } = await ownAccount();
      const list = await createList(account.id, token, 'Short lived');
      const contactId = await insertContact(h.database.db, account.id);
      await h.call('POST', membersUrl(account.id, list.id), token, { contactIds: [contactId] });
      expect((await h.call('DELETE', `${listsUrl(account.id)}/${list.id}`, token)).statusCode).toBe(204);
      expect(await h.database.db.select().from(listMembers).where(eq(listMembers.contactId, contactId))).toEqual([]);
      expect(await h.database.db.select({ id: contacts.id }).from(contacts).where(eq(contacts.id, contactId))).toEqual([{ id: contactId }]);
    });

    it('lets Read Only read members but not change them', async () => {
      const list = await createList(fixtures.accountId, tokens.Administrator, `Members ${randomUUID()}`);
      const contactId = await insertContact(h.database.db, fixtures.accountId);
      const url = membersUrl(fixtures.accountId, list.id);
      expect((await h.call('POST', url, tokens.ReadOnly, { contactIds: [contactId] })).statusCode).toBe(403);
      for (const role of ['Administrator', 'CampaignManager', 'Sender'] as const) {
        expect((await h.call('POST', url, tokens[role], { contactIds: [contactId] })).statusCode, role).toBe(200);
      }
      expect((await h.call('PUT', `${url}/${contactId}`, tokens.ReadOnly, { status: 'optedIn' })).statusCode).toBe(403);
      expect((await h.call('DELETE', `${url}/${contactId}`, tokens.ReadOnly)).statusCode).toBe(403);
      expect((await members(fixtures.accountId, list.id, tokens.ReadOnly)).data).toEqual([
        expect.objectContaining({ contactId, status: 'subscribed' }),
      ]);
      expect((await h.call('PUT', `${url}/${contactId}`, tokens.Sender, { status: 'optedIn' })).statusCode).toBe(200);
    });
  });
});
