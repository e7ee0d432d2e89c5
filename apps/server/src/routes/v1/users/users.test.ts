import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EMAIL_NOT_EDITABLE_MESSAGE,
  LAST_ADMINISTRATOR_MESSAGE,
  roles,
  USER_ALREADY_INVITED_MESSAGE,
  USER_ALREADY_MEMBER_MESSAGE,
  type AccountUser,
  type Role,
} from '@parley/shared';
import { accountMembers, invitations } from '../../../db/schema/index.js';
import { listMailboxMessages } from '../../../mail/localMailbox.js';
import { startApiHarness, type ApiHarness } from '../../../test/apiHarness.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { createAccount, createUser, roleFixtures } from '../../../test/factories.js';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

describe.each(testDatabaseKinds)('account users on %s', (kind) => {
  let h: ApiHarness;
  let fixtures: Awaited<ReturnType<typeof roleFixtures>>;
  const tokens = {} as Record<Role, string>;
  const publicUrl = 'https://parley.example.test';

  beforeAll(async () => {
    h = await startApiHarness(kind, { PUBLIC_URL: publicUrl });
    fixtures = await roleFixtures(h.database.db);
    for (const role of roles) tokens[role] = h.tokenFor(fixtures.users[role]);
  });
  afterAll(async () => {
    await h.close();
  });

  const call = (method: Method, url: string, token: string | undefined, body?: object) =>
    h.app.inject({
      method,
      url,
      headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
      ...(body === undefined ? {} : { payload: body }),
    });
  const usersUrl = (acc: string) => `/v1/accounts/${acc}/users`;
  const list = async (acc: string, token: string): Promise<AccountUser[]> =>
    (call('GET', `${usersUrl(acc)}?limit=100`, token).then((r) => r.json<{ data: AccountUser[] }>().data));

  /** A fresh account with one administrator (and a token for them). */
  async function ownAccount() {
    const admin = await createUser(h.database.db);
    const account = await createAccount(h.database.db, { [admin.id]: 'Administrator' });
    return { admin, account, token: h.tokenFor(admin.id) };
  }

  describe('GET', () => {
    it('lists members as active with their role, for every role, paged', async () => {
      for (const role of roles) {
        const res = await call('GET', usersUrl(fixtures.accountId), tokens[role]);
        expect(res.statusCode, role).toBe(200);
        const body = res.json<{ data: AccountUser[]; pagination: unknown }>();
        expect(body.pagination).toEqual({ totalCount: 4, offset: 0, limit: 10 });
        expect(body.data).toHaveLength(4);
        expect(body.data).toContainEqual(
          expect.objectContaining({ id: fixtures.users[role], role, status: 'active', firstName: 'Test', lastName: 'User' }),
        );
      }
      const page = await call('GET', `${usersUrl(fixtures.accountId)}?offset=1&limit=2`, tokens.ReadOnly);
      expect(page.json()).toMatchObject({ pagination: { totalCount: 4, offset: 1, limit: 2 } });
      expect(page.json<{ data: unknown[] }>().data).toHaveLength(2);
      expect((await call('GET', `${usersUrl(fixtures.accountId)}?limit=0`, tokens.ReadOnly)).statusCode).toBe(400);
    });

    it('answers 401 without a token and 404 for another account', async () => {
      expect((await call('GET', usersUrl(fixtures.accountId), undefined)).statusCode).toBe(401);
      const other = await ownAccount();
      const res = await call('GET', usersUrl(other.account.id), tokens.Administrator);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: { code: 'not_found', message: 'The account was not found.' } });
    });
  });

  describe('POST', () => {
    it('invites someone without a Parley user by e-mail, with a sign-up link that names the address', async () => {
      const { account, token } = await ownAccount();
      const email = `new-${randomUUID().slice(0, 8)}@example.test`;
      const res = await call('POST', usersUrl(account.id), token, {
        firstName: ' Nina ',
        lastName: 'New',
        email: email.toUpperCase(),
        role: 'Sender',
      });
      expect(res.statusCode).toBe(201);
      const { data } = res.json<{ data: AccountUser }>();
      expect(data).toEqual({ id: expect.any(String) as string, firstName: 'Nina', lastName: 'New', email, role: 'Sender', status: 'invited' });
      expect(await list(account.id, token)).toContainEqual(data);

      const [mail] = await listMailboxMessages(h.database.db, { limit: 5, to: email });
      expect(mail?.subject).toBe(`You are invited to ${account.name} on Parley`);
      expect(mail?.text).toContain(`${publicUrl}/signup?email=${encodeURIComponent(email)}`);
      expect(mail?.text).toContain('as Sender');

      const again = await call('POST', usersUrl(account.id), token, { firstName: 'N', lastName: 'N', email, role: 'ReadOnly' });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ error: { code: 'conflict', message: USER_ALREADY_INVITED_MESSAGE } });
    });

    it('adds a verified Parley user as a member at once and tells them', async () => {
      const { account, token } = await ownAccount();
      const person = await createUser(h.database.db, { firstName: 'Pat', lastName: 'Known' });
      const res = await call('POST', usersUrl(account.id), token, {
        firstName: 'Ignored',
        lastName: 'Names',
        email: person.email,
        role: 'CampaignManager',
      });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({
        data: { id: person.id, firstName: 'Pat', lastName: 'Known', email: person.email, role: 'CampaignManager', status: 'active' },
      });
      const [member] = await h.database.db
        .select()
        .from(accountMembers)
        .where(and(eq(accountMembers.accountId, account.id), eq(accountMembers.userId, person.id)));
      expect(member?.role).toBe('CampaignManager');
      const [mail] = await listMailboxMessages(h.database.db, { limit: 5, to: person.email });
      expect(mail?.subject).toBe(`You now have access to ${account.name} on Parley`);

      const again = await call('POST', usersUrl(account.id), token, { firstName: 'P', lastName: 'K', email: person.email, role: 'Sender' });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ error: { code: 'conflict', message: USER_ALREADY_MEMBER_MESSAGE } });
    });

    it('invites a user whose address is not verified instead of adding them', async () => {
      const { account, token } = await ownAccount();
      const person = await createUser(h.database.db, { emailVerifiedAt: null });
      const res = await call('POST', usersUrl(account.id), token, { firstName: 'U', lastName: 'V', email: person.email, role: 'Sender' });
      expect(res.json()).toMatchObject({ data: { status: 'invited', email: person.email } });
      const members = await h.database.db.select().from(accountMembers).where(eq(accountMembers.userId, person.id));
      expect(members).toEqual([]);
    });

    it('refuses bad input with the form messages and changes nothing', async () => {
      const { account, token } = await ownAccount();
      const cases: [object, string][] = [
        [{}, 'firstName: Required'],
        [{ firstName: ' ', lastName: 'L', email: 'a@example.test', role: 'Sender' }, 'firstName: Required'],
        [{ firstName: 'F', lastName: '', email: 'a@example.test', role: 'Sender' }, 'lastName: Required'],
        [{ firstName: 'F', lastName: 'L', email: '', role: 'Sender' }, 'email: Required'],
        [{ firstName: 'F', lastName: 'L', email: 'not-an-address', role: 'Sender' }, 'email: Invalid email address'],
        [{ firstName: 'F', lastName: 'L', email: 'a@example.test' }, 'role: Required'],
        [{ firstName: 'F', lastName: 'L', email: 'a@example.test', role: 'Owner' }, 'role: Required'],
      ];
      for (const [body, message] of cases) {
        const res = await call('POST', usersUrl(account.id), token, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json<{ error: { message: string } }>().error.message).toContain(message);
      }
      expect(await list(account.id, token)).toHaveLength(1);
    });

    it('is for administrators only', async () => {
      for (const role of roles) {
        const email = `r-${randomUUID().slice(0, 8)}@example.test`;
        const res = await call('POST', usersUrl(fixtures.accountId), tokens[role], { firstName: 'R', lastName: 'R', email, role: 'ReadOnly' });
        expect(res.statusCode, role).toBe(role === 'Administrator' ? 201 : 403);
      }
      const open = await h.database.db.select().from(invitations).where(eq(invitations.accountId, fixtures.accountId));
      expect(open).toHaveLength(1);
    });
  });

  describe('PUT', () => {
    it("changes a member's or an invitation's role, never the e-mail", async () => {
      const { account, token } = await ownAccount();
      const person = await createUser(h.database.db);
      await h.database.db.insert(accountMembers).values({ accountId: account.id, userId: person.id, role: 'Sender' });
      const url = `${usersUrl(account.id)}/${person.id}`;
      const res = await call('PUT', url, token, { role: 'ReadOnly' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ data: { id: person.id, role: 'ReadOnly', status: 'active' } });
      // The dialog sends the user back as it was: the same address (any case) is fine.
      const same = await call('PUT', url, token, { role: 'Sender', email: person.email.toUpperCase(), firstName: 'X' });
      expect(same.json()).toMatchObject({ data: { role: 'Sender', firstName: 'Test' } });
      const changed = await call('PUT', url, token, { role: 'Sender', email: 'someone-else@example.test' });
      expect(changed.statusCode).toBe(400);
      expect(changed.json()).toEqual({ error: { code: 'validation_failed', message: EMAIL_NOT_EDITABLE_MESSAGE } });

      const invited = await call('POST', usersUrl(account.id), token, { firstName: 'I', lastName: 'V', email: `i-${randomUUID()}@example.test`, role: 'Sender' });
      const { id } = invited.json<{ data: AccountUser }>().data;
      const invitation = await call('PUT', `${usersUrl(account.id)}/${id}`, token, { role: 'CampaignManager' });
      expect(invitation.json()).toMatchObject({ data: { id, role: 'CampaignManager', status: 'invited' } });
      expect((await call('PUT', url, token, { role: 'Boss' })).statusCode).toBe(400);
      expect((await call('PUT', url, token, {})).statusCode).toBe(400);
    });

    it("answers 404 for another account's user, an unknown and a malformed id", async () => {
      const { account, token } = await ownAccount();
      for (const id of [fixtures.users.Sender, randomUUID(), 'not-a-uuid']) {
        const res = await call('PUT', `${usersUrl(account.id)}/${id}`, token, { role: 'ReadOnly' });
        expect(res.statusCode, id).toBe(404);
        expect(res.json()).toEqual({ error: { code: 'not_found', message: 'The user was not found.' } });
      }
      expect((await list(fixtures.accountId, tokens.ReadOnly)).find((u) => u.id === fixtures.users.Sender)?.role).toBe('Sender');
    });

    it('is for administrators only', async () => {
      for (const role of roles) {
        const res = await call('PUT', `${usersUrl(fixtures.accountId)}/${fixtures.users.ReadOnly}`, tokens[role], { role: 'ReadOnly' });
        expect(res.statusCode, role).toBe(role === 'Administrator' ? 200 : 403);
      }
    });
  });

  describe('DELETE', () => {
    it('removes a member (who keeps their Parley user) and withdraws an invitation', async () => {
      const { account, token } = await ownAccount();
      const person = await createUser(h.database.db);
      await h.database.db.insert(accountMembers).values({ accountId: account.id, userId: person.id, role: 'Sender' });
      const res = await call('DELETE', `${usersUrl(account.id)}/${person.id}`, token);
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      const invited = await call('POST', usersUrl(account.id), token, { firstName: 'I', lastName: 'V', email: `d-${randomUUID()}@example.test`, role: 'Sender' });
      const { id } = invited.json<{ data: AccountUser }>().data;
      expect((await call('DELETE', `${usersUrl(account.id)}/${id}`, token)).statusCode).toBe(204);
      expect((await list(account.id, token)).map((u) => u.status)).toEqual(['active']);
      expect((await call('DELETE', `${usersUrl(account.id)}/${id}`, token)).statusCode).toBe(404);
    });

    it("answers 404 for another account's user and refuses every role but Administrator", async () => {
      const { account, token } = await ownAccount();
      expect((await call('DELETE', `${usersUrl(account.id)}/${fixtures.users.Sender}`, token)).statusCode).toBe(404);
      for (const role of ['CampaignManager', 'Sender', 'ReadOnly'] as const) {
        const res = await call('DELETE', `${usersUrl(fixtures.accountId)}/${fixtures.users.Sender}`, tokens[role]);
        expect(res.statusCode, role).toBe(403);
      }
      expect(await list(fixtures.accountId, tokens.ReadOnly)).toContainEqual(expect.objectContaining({ id: fixtures.users.Sender }));
    });
  });

  describe('the last administrator', () => {
    it('cannot be demoted or removed', async () => {
      const { admin, account, token } = await ownAccount();
      const url = `${usersUrl(account.id)}/${admin.id}`;
      for (const res of [await call('PUT', url, token, { role: 'Sender' }), await call('DELETE', url, token)]) {
        expect(res.statusCode).toBe(409);
        expect(res.json()).toEqual({ error: { code: 'conflict', message: LAST_ADMINISTRATOR_MESSAGE } });
      }
      expect((await call('PUT', url, token, { role: 'Administrator' })).statusCode).toBe(200);
      // With a second administrator, the first may step down.
      const second = await createUser(h.database.db);
      await h.database.db.insert(accountMembers).values({ accountId: account.id, userId: second.id, role: 'Administrator' });
      expect((await call('DELETE', url, token)).statusCode).toBe(204);
      expect(await list(account.id, h.tokenFor(second.id))).toEqual([expect.objectContaining({ id: second.id, role: 'Administrator' })]);
    });

    it('survives two demotions of the only two administrators at the same time', async () => {
      for (let round = 0; round < 3; round++) {
        const { admin, account } = await ownAccount();
        const second = await createUser(h.database.db);
        await h.database.db.insert(accountMembers).values({ accountId: account.id, userId: second.id, role: 'Administrator' });
        // An API client acts as administrator without being a member, so the guard passes both calls.
        const clientId = `pk_${randomUUID()}`;
        const token = h.authenticator.add({ userId: clientId, clientId, accountIds: [account.id] });
        const answers = await Promise.all(
          [admin.id, second.id].map((id) => call('PUT', `${usersUrl(account.id)}/${id}`, token, { role: 'ReadOnly' })),
        );
        expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
        const admins = await h.database.db
          .select()
          .from(accountMembers)
          .where(and(eq(accountMembers.accountId, account.id), eq(accountMembers.role, 'Administrator')));
        expect(admins).toHaveLength(1);
      }
    });
  });

  it('lets an API client of the account manage its users', async () => {
    const { account } = await ownAccount();
    const clientId = `pk_${randomUUID()}`;
    const token = h.authenticator.add({ userId: clientId, clientId, accountIds: [account.id] });
    const res = await call('POST', usersUrl(account.id), token, { firstName: 'A', lastName: 'C', email: `c-${randomUUID()}@example.test`, role: 'Sender' });
    expect(res.statusCode).toBe(201);
    const [mail] = await listMailboxMessages(h.database.db, { limit: 1, to: res.json<{ data: AccountUser }>().data.email });
    expect(mail?.text).toContain('You have been invited');
    expect((await call('GET', usersUrl(fixtures.accountId), token)).statusCode).toBe(404);
  });
});
