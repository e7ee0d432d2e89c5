import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  EMAIL_NOT_EDITABLE_MESSAGE,
  INVITATION_RESENT_RECENTLY_MESSAGE,
  LAST_ADMINISTRATOR_MESSAGE,
  roles,
  USER_ALREADY_INVITED_MESSAGE,
  USER_ALREADY_MEMBER_MESSAGE,
  type AccountUser,
} from '@parley/shared';
import { accountMembers, invitations } from '../../../platform/db/schema/index.js';
import { listMailboxMessages } from '../../../platform/mail/localMailbox.js';
import { linkIn, mailsTo } from '../../../test/mail.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { createUser } from '../../../test/factories.js';
import { useRouteHarness } from '../../../test/routeHarness.js';

describe.each(testDatabaseKinds)('account users on %s', (kind) => {
  const publicUrl = 'https://parley.example.test';
  const { h, fixtures, tokens, ownAccount } = useRouteHarness(kind, { env: { PUBLIC_URL: publicUrl } });

  const usersUrl = (acc: string) => `/v1/accounts/${acc}/users`;
  const list = async (acc: string, token: string): Promise<AccountUser[]> =>
    (h.call('GET', `${usersUrl(acc)}?limit=100`, token).then((r) => r.json<{ data: AccountUser[] }>().data));

  describe('GET', () => {
    it('lists members as active with their role, for every role, paged', async () => {
      for (const role of roles) {
        const res = await h.call('GET', usersUrl(fixtures.accountId), tokens[role]);
        expect(res.statusCode, role).toBe(200);
        const body = res.json<{ data: AccountUser[]; pagination: unknown }>();
        expect(body.pagination).toEqual({ totalCount: 4, offset: 0, limit: 10 });
        expect(body.data).toHaveLength(4);
        expect(body.data).toContainEqual(
          expect.objectContaining({ id: fixtures.users[role], role, status: 'active', firstName: 'Test', lastName: 'User' }),
        );
      }
      const page = await h.call('GET', `${usersUrl(fixtures.accountId)}?offset=1&limit=2`, tokens.ReadOnly);
      expect(page.json()).toMatchObject({ pagination: { totalCount: 4, offset: 1, limit: 2 } });
      expect(page.json<{ data: unknown[] }>().data).toHaveLength(2);
      expect((await h.call('GET', `${usersUrl(fixtures.accountId)}?limit=0`, tokens.ReadOnly)).statusCode).toBe(400);
    });

    it('answers 401 without a token and 404 for another account', async () => {
      expect((await h.call('GET', usersUrl(fixtures.accountId), undefined)).statusCode).toBe(401);
      const other = await ownAccount();
      const res = await h.call('GET', usersUrl(other.account.id), tokens.Administrator);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: { code: 'not_found', message: 'The account was not found.' } });
    });
  });

  describe('POST', () => {
    it('invites someone without a Parley user by e-mail, with a sign-up link that names the address', async () => {
      const { account, token } = await ownAccount();
      const email = `new-${randomUUID().slice(0, 8)}@example.test`;
      const res = await h.call('POST', usersUrl(account.id), token, {
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

      const again = await h.call('POST', usersUrl(account.id), token, { firstName: 'N', lastName: 'N', email, role: 'ReadOnly' });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ error: { code: 'conflict', message: USER_ALREADY_INVITED_MESSAGE } });
    });

    it('adds a verified Parley user as a member at once and tells them', async () => {
      const { account, token } = await ownAccount();
      const person = await createUser(h.database.db, { firstName: 'Pat', lastName: 'Known' });
      const res = await h.call('POST', usersUrl(account.id), token, {
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

      const again = await h.call('POST', usersUrl(account.id), token, { firstName: 'P', lastName: 'K', email: person.email, role: 'Sender' });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ error: { code: 'conflict', message: USER_ALREADY_MEMBER_MESSAGE } });
    });

    it('invites a user whose address is not verified instead of adding them', async () => {
      const { account, token } = await ownAccount();
      const person = await createUser(h.database.db, { emailVerifiedAt: null });
      const res = await h.call('POST', usersUrl(account.id), token, { firstName: 'U', lastName: 'V', email: person.email, role: 'Sender' });
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
        const res = await h.call('POST', usersUrl(account.id), token, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json<{ error: { message: string } }>().error.message).toContain(message);
      }
      expect(await list(account.id, token)).toHaveLength(1);
    });

    it('is for administrators only', async () => {
      for (const role of roles) {
        const email = `r-${randomUUID().slice(0, 8)}@example.test`;
        const res = await h.call('POST', usersUrl(fixtures.accountId), tokens[role], { firstName: 'R', lastName: 'R', email, role: 'ReadOnly' });
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
      const res = await h.call('PUT', url, token, { role: 'ReadOnly' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ data: { id: person.id, role: 'ReadOnly', status: 'active' } });
      // The dialog sends the user back as it was: the same address (any case) is fine.
      const same = await h.call('PUT', url, token, { role: 'Sender', email: person.email.toUpperCase(), firstName: 'X' });
      expect(same.json()).toMatchObject({ data: { role: 'Sender', firstName: 'Test' } });
      const changed = await h.call('PUT', url, token, { role: 'Sender', email: 'someone-else@example.test' });
      expect(changed.statusCode).toBe(400);
      expect(changed.json()).toEqual({ error: { code: 'validation_failed', message: EMAIL_NOT_EDITABLE_MESSAGE } });

      const invited = await h.call('POST', usersUrl(account.id), token, { firstName: 'I', lastName: 'V', email: `i-${randomUUID()}@example.test`, role: 'Sender' });
      const { id } = invited.json<{ data: AccountUser }>().data;
      const invitation = await h.call('PUT', `${usersUrl(account.id)}/${id}`, token, { role: 'CampaignManager' });
      expect(invitation.json()).toMatchObject({ data: { id, role: 'CampaignManager', status: 'invited' } });
      expect((await h.call('PUT', url, token, { role: 'Boss' })).statusCode).toBe(400);
      expect((await h.call('PUT', url, token, {})).statusCode).toBe(400);
    });

    it("answers 404 for another account's user, an unknown and a malformed id", async () => {
      const { account, token } = await ownAccount();
      for (const id of [fixtures.users.Sender, randomUUID(), 'not-a-uuid']) {
        const res = await h.call('PUT', `${usersUrl(account.id)}/${id}`, token, { role: 'ReadOnly' });
        expect(res.statusCode, id).toBe(404);
        expect(res.json()).toEqual({ error: { code: 'not_found', message: 'The user was not found.' } });
      }
      expect((await list(fixtures.accountId, tokens.ReadOnly)).find((u) => u.id === fixtures.users.Sender)?.role).toBe('Sender');
    });

    it('is for administrators only', async () => {
      for (const role of roles) {
        const res = await h.call('PUT', `${usersUrl(fixtures.accountId)}/${fixtures.users.ReadOnly}`, tokens[role], { role: 'ReadOnly' });
        expect(res.statusCode, role).toBe(role === 'Administrator' ? 200 : 403);
      }
    });
  });

  describe('DELETE', () => {
    it('removes a member (who keeps their Parley user) and withdraws an invitation', async () => {
      const { account, token } = await ownAccount();
      const person = await createUser(h.database.db);
      await h.database.db.insert(accountMembers).values({ accountId: account.id, userId: person.id, role: 'Sender' });
      const res = await h.call('DELETE', `${usersUrl(account.id)}/${person.id}`, token);
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      const invited = await h.call('POST', usersUrl(account.id), token, { firstName: 'I', lastName: 'V', email: `d-${randomUUID()}@example.test`, role: 'Sender' });
      const { id } = invited.json<{ data: AccountUser }>().data;
      expect((await h.call('DELETE', `${usersUrl(account.id)}/${id}`, token)).statusCode).toBe(204);
      expect((await list(account.id, token)).map((u) => u.status)).toEqual(['active']);
      expect((await h.call('DELETE', `${usersUrl(account.id)}/${id}`, token)).statusCode).toBe(404);
    });

    it("answers 404 for another account's user and refuses every role but Administrator", async () => {
      const { account, token } = await ownAccount();
      expect((await h.call('DELETE', `${usersUrl(account.id)}/${fixtures.users.Sender}`, token)).statusCode).toBe(404);
      for (const role of ['CampaignManager', 'Sender', 'ReadOnly'] as const) {
        const res = await h.call('DELETE', `${usersUrl(fixtures.accountId)}/${fixtures.users.Sender}`, tokens[role]);
        expect(res.statusCode, role).toBe(403);
      }
      expect(await list(fixtures.accountId, tokens.ReadOnly)).toContainEqual(expect.objectContaining({ id: fixtures.users.Sender }));
    });
  });

  describe('POST resend', () => {
    const resendUrl = (acc: string, id: string) => `${usersUrl(acc)}/${id}/resend`;
    /** Invites a new address into the account and answers the invitation as the list shows it. */
    async function invite(acc: string, token: string, email = `inv-${randomUUID().slice(0, 8)}@example.test`): Promise<AccountUser> {
      const res = await h.call('POST', usersUrl(acc), token, { firstName: 'Ivy', lastName: 'Invited', email, role: 'Sender' });
      expect(res.statusCode).toBe(201);
      return res.json<{ data: AccountUser }>().data;
    }

    it('sends the invitation again, naming who sent it, then refuses a second resend within the minute', async () => {
      const { admin, account, token } = await ownAccount();
      const invited = await invite(account.id, token);
      const res = await h.call('POST', resendUrl(account.id, invited.id), token);
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      const mails = await mailsTo(h.database.db, invited.email);
      expect(mails).toHaveLength(2);
      expect(mails[0]?.subject).toBe(`You are invited to ${account.name} on Parley`);
      expect(linkIn(mails[0], `${publicUrl}/signup`)).toBe(
        `${publicUrl}/signup?${new URLSearchParams({ email: invited.email, first_name: 'Ivy', last_name: 'Invited' }).toString()}`,
      );
      expect(mails[0]?.text).toContain(`${admin.firstName} ${admin.lastName} has invited you to join ${account.name} on Parley as Sender.`);

      const again = await h.call('POST', resendUrl(account.id, invited.id), token);
      expect(again.statusCode).toBe(429);
      expect(again.json()).toEqual({ error: { code: 'rate_limited', message: INVITATION_RESENT_RECENTLY_MESSAGE } });
      expect(await mailsTo(h.database.db, invited.email)).toHaveLength(2);
      // The limit is per invitation: another one of the same account goes out.
      const other = await invite(account.id, token);
      expect((await h.call('POST', resendUrl(account.id, other.id), token)).statusCode).toBe(204);
      expect(await mailsTo(h.database.db, other.email)).toHaveLength(2);
      // The invitation itself is unchanged.
      expect(await list(account.id, token)).toContainEqual(invited);
    });

    it('asks someone whose user is not verified yet to sign in, as the first mail did', async () => {
      const { account, token } = await ownAccount();
      const person = await createUser(h.database.db, { emailVerifiedAt: null });
      const invited = await invite(account.id, token, person.email);
      expect((await h.call('POST', resendUrl(account.id, invited.id), token)).statusCode).toBe(204);
      const [mail] = await mailsTo(h.database.db, person.email);
      expect(linkIn(mail, publicUrl)).toBe(`${publicUrl}/login`);
      expect(mail?.text).toContain('Sign in and verify this email address');
    });

    it("answers 404 for a member, another account's invitation, a withdrawn or accepted one, an unknown and a malformed id", async () => {
      const { account, token } = await ownAccount();
      const member = await createUser(h.database.db);
      await h.database.db.insert(accountMembers).values({ accountId: account.id, userId: member.id, role: 'Sender' });
      const elsewhere = await invite(fixtures.accountId, tokens.Administrator);
      const withdrawn = await invite(account.id, token);
      await h.call('DELETE', `${usersUrl(account.id)}/${withdrawn.id}`, token);
      const accepted = await invite(account.id, token);
      await h.database.db.update(invitations).set({ acceptedAt: new Date() }).where(eq(invitations.id, accepted.id));
      const ids = { member: member.id, elsewhere: elsewhere.id, withdrawn: withdrawn.id, accepted: accepted.id, unknown: randomUUID(), malformed: 'nope' };
      for (const [what, id] of Object.entries(ids)) {
        const res = await h.call('POST', resendUrl(account.id, id), token);
        expect(res.statusCode, what).toBe(404);
        expect(res.json(), what).toEqual({ error: { code: 'not_found', message: 'The invitation was not found.' } });
      }
      expect(await mailsTo(h.database.db, member.email)).toHaveLength(0);
      for (const invitation of [elsewhere, withdrawn, accepted]) expect(await mailsTo(h.database.db, invitation.email)).toHaveLength(1);
      // Another account's id in the path is not found at all.
      const mine = await invite(account.id, token);
      expect((await h.call('POST', resendUrl(fixtures.accountId, mine.id), token)).statusCode).toBe(404);
    });

    it('is for administrators only', async () => {
      const invited = await invite(fixtures.accountId, tokens.Administrator);
      for (const role of ['CampaignManager', 'Sender', 'ReadOnly'] as const) {
        const res = await h.call('POST', resendUrl(fixtures.accountId, invited.id), tokens[role]);
        expect(res.statusCode, role).toBe(403);
      }
      expect(await mailsTo(h.database.db, invited.email)).toHaveLength(1);
      expect((await h.call('POST', resendUrl(fixtures.accountId, invited.id), undefined)).statusCode).toBe(401);
      expect((await h.call('POST', resendUrl(fixtures.accountId, invited.id), tokens.Administrator)).statusCode).toBe(204);
      expect(await mailsTo(h.database.db, invited.email)).toHaveLength(2);
    });

    it('lets an API client resend, without naming a person', async () => {
      const { account, token } = await ownAccount();
      const invited = await invite(account.id, token);
      const clientId = `pk_${randomUUID()}`;
      const client = h.authenticator.add({ userId: clientId, clientId, accountIds: [account.id] });
      expect((await h.call('POST', resendUrl(account.id, invited.id), client)).statusCode).toBe(204);
      const [mail] = await mailsTo(h.database.db, invited.email);
      expect(mail?.text).toContain(`You have been invited to join ${account.name}`);
    });
  });

  describe('the last administrator', () => {
    it('cannot be demoted or removed', async () => {
      const { admin, account, token } = await ownAccount();
      const url = `${usersUrl(account.id)}/${admin.id}`;
      for (const res of [await h.call('PUT', url, token, { role: 'Sender' }), await h.call('DELETE', url, token)]) {
        expect(res.statusCode).toBe(409);
        expect(res.json()).toEqual({ error: { code: 'conflict', message: LAST_ADMINISTRATOR_MESSAGE } });
      }
      expect((await h.call('PUT', url, token, { role: 'Administrator' })).statusCode).toBe(200);
      // With a second administrator, the first may step down.
      const second = await createUser(h.database.db);
      await h.database.db.insert(accountMembers).values({ accountId: account.id, userId: second.id, role: 'Administrator' });
      expect((await h.call('DELETE', url, token)).statusCode).toBe(204);
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
          [admin.id, second.id].map((id) => h.call('PUT', `${usersUrl(account.id)}/${id}`, token, { role: 'ReadOnly' })),
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
    const res = await h.call('POST', usersUrl(account.id), token, { firstName: 'A', lastName: 'C', email: `c-${randomUUID()}@example.test`, role: 'Sender' });
    expect(res.statusCode).toBe(201);
    const [mail] = await listMailboxMessages(h.database.db, { limit: 1, to: res.json<{ data: AccountUser }>().data.email });
    expect(mail?.text).toContain('You have been invited');
    expect((await h.call('GET', usersUrl(fixtures.accountId), token)).statusCode).toBe(404);
  });
});
