import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Profile, ProfileInvitation } from '@parley/shared';
import { v7 as uuidv7 } from 'uuid';
import { accountMembers, accounts, contactGroups, groupUsers, invitations, users } from '../../../platform/db/schema/index.js';
import { startApiHarness, type ApiHarness, type HttpMethod } from '../../../test/apiHarness.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { createAccount, createUser } from '../../../test/factories.js';


describe.each(testDatabaseKinds)('the profile on %s', (kind) => {
  let h: ApiHarness;

  beforeAll(async () => {
    h = await startApiHarness(kind);
  });
  afterAll(async () => {
    await h.close();
  });

  const call = (method: HttpMethod, url: string, token: string | undefined, body?: object) =>
    h.call(method, url, token, body);

  it('shows the signed-in user', async () => {
    const user = await createUser(h.database.db, {
      firstName: 'Ada',
      lastName: 'Lovelace',
      mobileNumber: '+14155552671',
      mobileCountry: 'US',
      tacAcceptedAt: new Date('2025-01-02T03:04:05.000Z'),
    });
    const res = await call('GET', '/v1/profile', h.tokenFor(user.id));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: {
        id: user.id,
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: user.email,
        emailVerified: true,
        mobile: { number: '+14155552671', country: 'US' },
        tacAccepted: '2025-01-02T03:04:05.000Z',
        groups: [],
      },
    });
    const bare = await createUser(h.database.db, { emailVerifiedAt: null, tacAcceptedAt: null });
    expect((await call('GET', '/v1/profile', h.tokenFor(bare.id))).json<{ data: Profile }>().data).toMatchObject({
      emailVerified: false,
      mobile: null,
      tacAccepted: null,
    });
  });

  it("lists the user's groups in the accounts they still belong to", async () => {
    const db = h.database.db;
    const user = await createUser(db);
    const own = await createAccount(db, { [user.id]: 'Sender' });
    const left = await createAccount(db, { [user.id]: 'Sender' });
    const group = (accountId: string, name: string) => ({ id: uuidv7(), accountId, name });
    const [front, back, elsewhere, notMine] = [
      group(own.id, 'front desk'),
      group(own.id, 'Billing'),
      group(left.id, 'Gone'),
      group(own.id, 'Others'),
    ];
    await db.insert(contactGroups).values([front, back, elsewhere, notMine]);
    await db.insert(groupUsers).values([front, back, elsewhere].map((g) => ({ groupId: g.id, userId: user.id })));
    await db.delete(accountMembers).where(eq(accountMembers.accountId, left.id));
    const res = await call('GET', '/v1/profile', h.tokenFor(user.id));
    expect(res.json<{ data: Profile }>().data.groups).toEqual([
      { id: back.id, name: 'Billing' },
      { id: front.id, name: 'front desk' },
    ]);
  });

  it('changes names and mobile, normalised to E.164', async () => {
    const user = await createUser(h.database.db);
    const token = h.tokenFor(user.id);
    const res = await call('PUT', '/v1/profile', token, {
      firstName: ' Grace ',
      lastName: 'Hopper',
      mobile: { country: 'gb', number: '07400 123456' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ data: Profile }>().data).toMatchObject({
      firstName: 'Grace',
      lastName: 'Hopper',
      email: user.email,
      mobile: { number: '+447400123456', country: 'GB' },
    });
  });

  it('refuses bad input with the message of each field and changes nothing', async () => {
    const user = await createUser(h.database.db);
    const token = h.tokenFor(user.id);
    const good = { firstName: 'A', lastName: 'B', mobile: { country: 'US', number: '(415) 555-2671' } };
    const cases: [object, string][] = [
      [{ ...good, firstName: '' }, 'firstName: Required'],
      [{ ...good, lastName: '  ' }, 'lastName: Required'],
      [{ ...good, mobile: { country: 'US', number: '' } }, 'mobile.number: Number is missing'],
      [{ ...good, mobile: { country: 'ZZ', number: '4155552671' } }, 'mobile.number: Country is not valid'],
      [{ ...good, mobile: { country: 'US', number: '123' } }, 'mobile.number: Country or Number is not valid'],
    ];
    for (const [body, message] of cases) {
      const res = await call('PUT', '/v1/profile', token, body);
      expect(res.statusCode, message).toBe(400);
      expect(res.json()).toMatchObject({ error: { code: 'validation_failed', message: expect.stringContaining(message) as string } });
    }
    const [row] = await h.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ firstName: 'Test', lastName: 'User', mobileNumber: null });
  });

  it("lists the open invitations to the user's own address only, by account name, oldest first", async () => {
    const db = h.database.db;
    const user = await createUser(db, { email: `invited-${randomUUID()}@example.test`, emailVerifiedAt: null });
    const other = await createUser(db);
    const first = await createAccount(db, {}, { name: 'Harbor Dental' });
    const second = await createAccount(db, {}, { name: 'Bay Books' });
    const accepted = await createAccount(db, {}, { name: 'Already Joined' });
    const closed = await createAccount(db, {}, { name: 'Closed Shop' });
    await db.update(accounts).set({ status: 'closed', closedAt: new Date() }).where(eq(accounts.id, closed.id));
    const invite = (accountId: string, email: string, createdAt: string, acceptedAt: Date | null = null) => ({
      id: uuidv7(),
      accountId,
      email,
      role: 'Sender' as const,
      createdAt: new Date(createdAt),
      acceptedAt,
    });
    await db.insert(invitations).values([
      invite(second.id, user.email, '2025-03-02T00:00:00.000Z'),
      // Addresses compare without case.
      invite(first.id, user.email.toUpperCase(), '2025-03-01T00:00:00.000Z'),
      invite(accepted.id, user.email, '2025-02-01T00:00:00.000Z', new Date()),
      invite(closed.id, user.email, '2025-02-02T00:00:00.000Z'),
      invite(first.id, other.email, '2025-01-01T00:00:00.000Z'),
    ]);
    const res = await call('GET', '/v1/profile/invitations', h.tokenFor(user.id));
    expect(res.statusCode).toBe(200);
    expect(res.json<{ data: ProfileInvitation[] }>()).toEqual({
      data: [
        { accountName: 'Harbor Dental', invitedAt: '2025-03-01T00:00:00.000Z' },
        { accountName: 'Bay Books', invitedAt: '2025-03-02T00:00:00.000Z' },
      ],
    });
    // Another user sees their own invitation, not this user's.
    const others = await call('GET', '/v1/profile/invitations', h.tokenFor(other.id));
    expect(others.json<{ data: ProfileInvitation[] }>().data.map((i) => i.accountName)).toEqual(['Harbor Dental']);
    expect((await call('GET', '/v1/profile/invitations', h.tokenFor((await createUser(db)).id))).json()).toEqual({ data: [] });
  });

  it('records the acceptance of the terms once', async () => {
    const user = await createUser(h.database.db, { tacAcceptedAt: null });
    const token = h.tokenFor(user.id);
    const res = await call('PUT', '/v1/profile/accepttac', token);
    expect(res.statusCode).toBe(204);
    const first = (await call('GET', '/v1/profile', token)).json<{ data: Profile }>().data.tacAccepted;
    expect(first).not.toBeNull();
    expect((await call('PUT', '/v1/profile/accepttac', token)).statusCode).toBe(204);
    expect((await call('GET', '/v1/profile', token)).json<{ data: Profile }>().data.tacAccepted).toBe(first);
  });

  it('answers 401 without a token, 403 to API clients, 404 for a user that is gone', async () => {
    const clientId = `client-${randomUUID()}`;
    const client = h.authenticator.add({ userId: clientId, clientId, accountIds: [randomUUID()] });
    for (const [method, url] of [
      ['GET', '/v1/profile'],
      ['PUT', '/v1/profile'],
      ['PUT', '/v1/profile/accepttac'],
      ['GET', '/v1/profile/invitations'],
    ] as const) {
      expect((await call(method, url, undefined)).statusCode).toBe(401);
      const refused = await call(method, url, client, {});
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ error: { code: 'forbidden', message: 'API credentials have no profile.' } });
    }
    const gone = h.tokenFor(randomUUID());
    expect((await call('GET', '/v1/profile', gone)).statusCode).toBe(404);
    expect((await call('PUT', '/v1/profile/accepttac', gone)).statusCode).toBe(404);
    expect((await call('GET', '/v1/profile/invitations', gone)).statusCode).toBe(404);
  });
});
