import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { GROUP_NAME_TAKEN_MESSAGE, GROUP_PHONE_NUMBERS_MESSAGE, GROUP_USERS_MESSAGE, roles, type Group, type Pagination } from '@parley/shared';
import { accountMembers, contactGroups, groupPhoneNumbers, groupUsers } from '../../../platform/db/schema/index.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { createAccount, createUser } from '../../../test/factories.js';
import { createPhoneNumber } from '../../../test/phoneNumbers.js';
import { useRouteHarness } from '../../../test/routeHarness.js';

describe.each(testDatabaseKinds)('groups on %s', (kind) => {
  const { h, fixtures, tokens } = useRouteHarness(kind);

  const groupsUrl = (acc: string) => `/v1/accounts/${acc}/groups`;

  async function ownAccount() {
    const admin = await createUser(h.database.db, { firstName: 'Ada', lastName: 'Admin' });
    const sender = await createUser(h.database.db, { firstName: 'Sam', lastName: 'Sender' });
    const account = await createAccount(h.database.db, { [admin.id]: 'Administrator', [sender.id]: 'Sender' });
    return { account, admin, sender, token: h.tokenFor(admin.id) };
  }

  const allGroups = async (acc: string, token: string) =>
    (await h.call('GET', `${groupsUrl(acc)}?limit=100`, token)).json<{ data: Group[]; pagination: Pagination }>();

  it('creates a group with tags, phone numbers and users, lists, reads, updates and removes it', async () => {
    const { account, admin, sender, token } = await ownAccount();
    const phoneNumberId = (await createPhoneNumber(h.database.db, account.id)).id;
    const res = await h.call('POST', groupsUrl(account.id), token, {
      name: ' Front desk ',
      tags: ['vip', 'VIP', ' new '],
      phoneNumbers: [phoneNumberId, phoneNumberId],
      users: [sender.id, admin.id],
    });
    expect(res.statusCode, res.body).toBe(201);
    const group = res.json<{ data: Group }>().data;
    expect(group).toEqual({
      id: expect.any(String) as string,
      name: 'Front desk',
      tags: ['vip', 'new'],
      phoneNumbers: [{ id: phoneNumberId }],
      users: [
        { id: admin.id, firstName: 'Ada', lastName: 'Admin', email: admin.email },
        { id: sender.id, firstName: 'Sam', lastName: 'Sender', email: sender.email },
      ],
      created: { at: expect.any(String) as string },
      updated: { at: expect.any(String) as string },
    });
    const bare = await h.call('POST', groupsUrl(account.id), token, { name: 'Billing' });
    expect(bare.json()).toMatchObject({ data: { name: 'Billing', tags: [], phoneNumbers: [], users: [] } });

    const all = await allGroups(account.id, token);
    expect(all.data.map((g) => g.name)).toEqual(['Billing', 'Front desk']);
    expect(all.pagination).toEqual({ totalCount: 2, offset: 0, limit: 100 });
    // Groups are fetched with limit 100, elsewhere 50 or 500.
    expect((await h.call('GET', `${groupsUrl(account.id)}?limit=500`, token)).statusCode).toBe(200);
    expect((await h.call('GET', `${groupsUrl(account.id)}?limit=501`, token)).statusCode).toBe(400);
    expect((await h.call('GET', `${groupsUrl(account.id)}/${group.id}`, token)).json()).toEqual({ data: group });

    // A list that is not sent stays; one that is sent replaces the stored one.
    const renamed = await h.call('PUT', `${groupsUrl(account.id)}/${group.id}`, token, { name: 'Reception' });
    expect(renamed.json()).toMatchObject({ data: { name: 'Reception', tags: ['vip', 'new'], users: [{ id: admin.id }, { id: sender.id }] } });
    const changed = await h.call('PUT', `${groupsUrl(account.id)}/${group.id}`, token, { name: 'Reception', tags: [], users: [sender.id], phoneNumbers: [] });
    expect(changed.json()).toMatchObject({ data: { tags: [], phoneNumbers: [], users: [{ id: sender.id }] } });
    expect(await h.database.db.select().from(groupPhoneNumbers).where(eq(groupPhoneNumbers.groupId, group.id))).toEqual([]);
    const second = (await createPhoneNumber(h.database.db, account.id)).id;
    const renumbered = await h.call('PUT', `${groupsUrl(account.id)}/${group.id}`, token, { name: 'Reception', phoneNumbers: [second, phoneNumberId] });
    expect(renumbered.json<{ data: Group }>().data.phoneNumbers).toEqual([{ id: phoneNumberId }, { id: second }]);

    expect((await h.call('DELETE', `${groupsUrl(account.id)}/${group.id}`, token)).statusCode).toBe(204);
    expect((await h.call('GET', `${groupsUrl(account.id)}/${group.id}`, token)).statusCode).toBe(404);
    expect(await h.database.db.select().from(groupUsers).where(eq(groupUsers.groupId, group.id))).toEqual([]);
    expect((await allGroups(account.id, token)).pagination.totalCount).toBe(1);
  });

  it('refuses bad input with a clear message and changes nothing', async () => {
    const { account, token } = await ownAccount();
    const outsider = await createUser(h.database.db);
    const ours = await createPhoneNumber(h.database.db, account.id);
    const released = await createPhoneNumber(h.database.db, account.id, { status: 'released' });
    const elsewhere = await createAccount(h.database.db);
    const theirs = await createPhoneNumber(h.database.db, elsewhere.id);
    const created = await h.call('POST', groupsUrl(account.id), token, { name: 'Sales', tags: ['lead'], phoneNumbers: [ours.id] });
    const group = created.json<{ data: Group }>().data;
    const cases: [object, number, string][] = [
      [{}, 400, 'name: Required'],
      [{ name: '  ' }, 400, 'name: Required'],
      [{ name: 'X', tags: ['a,b'] }, 400, 'A tag has at most 50 characters and no commas'],
      [{ name: 'X', phoneNumbers: ['+14155552671'] }, 400, 'Not a phone number id'],
      [{ name: 'X', users: ['someone'] }, 400, 'Not a user id'],
      [{ name: 'X', users: [outsider.id] }, 400, `users: ${GROUP_USERS_MESSAGE}`],
      // Only the account's own numbers: not an unknown id, another account's number or a released one.
      [{ name: 'X', phoneNumbers: [randomUUID()] }, 400, `phoneNumbers: ${GROUP_PHONE_NUMBERS_MESSAGE}`],
      [{ name: 'X', phoneNumbers: [ours.id, theirs.id] }, 400, `phoneNumbers: ${GROUP_PHONE_NUMBERS_MESSAGE}`],
      [{ name: 'X', phoneNumbers: [released.id] }, 400, `phoneNumbers: ${GROUP_PHONE_NUMBERS_MESSAGE}`],
      [{ name: 'sales' }, 409, GROUP_NAME_TAKEN_MESSAGE],
    ];
    for (const [body, status, message] of cases) {
      const res = await h.call('POST', groupsUrl(account.id), token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json<{ error: { message: string } }>().error.message).toContain(message);
      if (status === 400) {
        const update = await h.call('PUT', `${groupsUrl(account.id)}/${group.id}`, token, body);
        expect(update.statusCode, JSON.stringify(body)).toBe(400);
      }
    }
    const other = (await h.call('POST', groupsUrl(account.id), token, { name: 'Support' })).json<{ data: Group }>().data;
    const clash = await h.call('PUT', `${groupsUrl(account.id)}/${other.id}`, token, { name: 'SALES' });
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toEqual({ error: { code: 'conflict', message: GROUP_NAME_TAKEN_MESSAGE } });
    expect((await allGroups(account.id, token)).data).toEqual([
      expect.objectContaining({ name: 'Sales', tags: ['lead'], phoneNumbers: [{ id: ours.id }], users: [] }),
      expect.objectContaining({ name: 'Support' }),
    ]);
    // Its own name in another case is no clash.
    expect((await h.call('PUT', `${groupsUrl(account.id)}/${group.id}`, token, { name: 'SALES' })).statusCode).toBe(200);
  });

  it('drops a user from the groups shown once they leave the account', async () => {
    const { account, sender, token } = await ownAccount();
    const res = await h.call('POST', groupsUrl(account.id), token, { name: 'Night shift', users: [sender.id] });
    const group = res.json<{ data: Group }>().data;
    await h.database.db
      .delete(accountMembers)
      .where(and(eq(accountMembers.accountId, account.id), eq(accountMembers.userId, sender.id)));
    expect((await h.call('GET', `${groupsUrl(account.id)}/${group.id}`, token)).json()).toMatchObject({ data: { users: [] } });
  });

  it('lets every role read groups and only administrators change them', async () => {
    for (const role of roles) {
      const res = await h.call('POST', groupsUrl(fixtures.accountId), tokens[role], { name: `By ${role}` });
      expect(res.statusCode, role).toBe(role === 'Administrator' ? 201 : 403);
    }
    const [group] = (await allGroups(fixtures.accountId, tokens.ReadOnly)).data;
    if (!group) throw new Error('no group');
    for (const role of roles) {
      expect((await h.call('GET', groupsUrl(fixtures.accountId), tokens[role])).statusCode, role).toBe(200);
      expect((await h.call('GET', `${groupsUrl(fixtures.accountId)}/${group.id}`, tokens[role])).statusCode, role).toBe(200);
      if (role === 'Administrator') continue;
      expect((await h.call('PUT', `${groupsUrl(fixtures.accountId)}/${group.id}`, tokens[role], { name: 'Mine' })).statusCode, role).toBe(403);
      expect((await h.call('DELETE', `${groupsUrl(fixtures.accountId)}/${group.id}`, tokens[role])).statusCode, role).toBe(403);
    }
    expect((await allGroups(fixtures.accountId, tokens.ReadOnly)).data.map((g) => g.name)).toEqual(['By Administrator']);
  });

  it("answers 404 for another account's group, an unknown and a malformed id, and leaves it alone", async () => {
    const mine = await ownAccount();
    const theirs = await ownAccount();
    const created = await h.call('POST', groupsUrl(theirs.account.id), theirs.token, { name: 'Theirs', users: [theirs.sender.id] });
    const group = created.json<{ data: Group }>().data;
    for (const id of [group.id, randomUUID(), 'not-a-uuid']) {
      for (const res of [
        await h.call('GET', `${groupsUrl(mine.account.id)}/${id}`, mine.token),
        await h.call('PUT', `${groupsUrl(mine.account.id)}/${id}`, mine.token, { name: 'Taken over' }),
        await h.call('DELETE', `${groupsUrl(mine.account.id)}/${id}`, mine.token),
      ]) {
        expect(res.statusCode, id).toBe(404);
        expect(res.json()).toEqual({ error: { code: 'not_found', message: 'The group was not found.' } });
      }
    }
    // Another account's user cannot be put in a group either.
    const foreignUser = await h.call('POST', groupsUrl(mine.account.id), mine.token, { name: 'Mixed', users: [theirs.sender.id] });
    expect(foreignUser.statusCode).toBe(400);
    // Nor another account's number.
    const theirNumber = await createPhoneNumber(h.database.db, theirs.account.id);
    const foreignNumber = await h.call('POST', groupsUrl(mine.account.id), mine.token, { name: 'Mixed', phoneNumbers: [theirNumber.id] });
    expect(foreignNumber.statusCode).toBe(400);
    expect(foreignNumber.json()).toEqual({ error: { code: 'validation_failed', message: `phoneNumbers: ${GROUP_PHONE_NUMBERS_MESSAGE}` } });
    expect((await h.call('GET', groupsUrl(theirs.account.id), mine.token)).statusCode).toBe(404);
    const [row] = await h.database.db.select().from(contactGroups).where(eq(contactGroups.id, group.id));
    expect(row?.name).toBe('Theirs');
    expect((await allGroups(mine.account.id, mine.token)).pagination.totalCount).toBe(0);
  });
});
