import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMembers, invitations, userIdentities, users } from '../../platform/db/schema/index.js';
import { createAccount } from '../../test/factories.js';
import { discover, signInWithPkce, startIssuerServer } from '../../test/identity.js';
import type { TestServer } from '../../test/server.js';
import { personClaimsOf } from './externalUsers.js';
import { createUser, findUserByEmail } from './users.js';

describe('personClaimsOf', () => {
  it('reads the standard claims, splitting name when the parts are missing', () => {
    expect(personClaimsOf({ sub: 's', email: ' A@Example.test ', email_verified: true, given_name: 'Ada', family_name: 'Lovelace' })).toEqual({
      sub: 's',
      email: 'A@Example.test',
      emailVerified: true,
      givenName: 'Ada',
      familyName: 'Lovelace',
    });
    expect(personClaimsOf({ sub: 's', email_verified: 'true', name: 'Grace Brewster Hopper' })).toEqual({
      sub: 's',
      email: null,
      emailVerified: true,
      givenName: 'Grace',
      familyName: 'Brewster Hopper',
    });
    expect(personClaimsOf({ sub: 's', email: 'x@example.test', email_verified: 'yes' }).emailVerified).toBe(false);
  });
});

// One Parley stands in for an external issuer; the other trusts it (OIDC_ISSUER) and maps its subjects
// to Parley users of its own database.
describe('users of an external issuer (pglite)', () => {
  let external: TestServer;
  let server: TestServer;
  const password = 'a long enough password';

  beforeAll(async () => {
    external = await startIssuerServer('pglite');
    server = await startIssuerServer('pglite', {
      OIDC_ISSUER: external.config.identity.issuer,
      OIDC_AUDIENCE: external.config.identity.audience,
    });
  });
  afterAll(async () => {
    await server.stop();
    await external.stop();
  });

  /** A person of the external issuer and an access token of theirs, as the web app would get it. */
  async function externalPerson(overrides: { emailVerified?: boolean; email?: string } = {}) {
    const email = overrides.email ?? `p-${randomUUID().slice(0, 8)}@example.test`;
    const person = await createUser(external.database.db, {
      email,
      password,
      firstName: 'Erin',
      lastName: 'Outside',
      emailVerified: overrides.emailVerified ?? true,
    });
    const web = await discover(external.config.identity.issuer, 'parley-web');
    const { tokens } = await signInWithPkce(web, `${external.config.publicUrl}/callback`, { email, password });
    return { person, token: tokens.access_token };
  }

  const profile = (token: string) =>
    fetch(`${server.baseUrl}/v1/profile`, { headers: { authorization: `Bearer ${token}` } });

  it('creates a Parley user for a new person at the first call, once, and keeps answering with it', async () => {
    const { person, token } = await externalPerson();
    // The web app asks for several things at once after signing in.
    const answers = await Promise.all([profile(token), profile(token), profile(token)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const bodies = (await Promise.all(answers.map((a) => a.json()))) as { data: { id: string; email: string; firstName: string } }[];
    const ids = new Set(bodies.map((b) => b.data.id));
    expect(ids.size).toBe(1);
    expect(bodies[0]?.data).toMatchObject({ email: person.email, firstName: 'Erin' });
    expect(bodies[0]?.data.id).not.toBe(person.id);

    const local = await findUserByEmail(server.database.db, person.email);
    expect(local).toMatchObject({ passwordHash: null, lastName: 'Outside' });
    expect(local?.emailVerifiedAt).not.toBeNull();
    const links = await server.database.db
      .select()
      .from(userIdentities)
      .where(and(eq(userIdentities.provider, external.config.identity.issuer), eq(userIdentities.subject, person.id)));
    expect(links.map((l) => l.userId)).toEqual([local?.id]);
  });

  it('links a Parley user who already has the address, and takes up open invitations', async () => {
    const email = `known-${randomUUID().slice(0, 8)}@example.test`;
    const existing = await createUser(server.database.db, { email, password, emailVerified: true });
    const owner = await createUser(server.database.db, { email: `o-${randomUUID().slice(0, 8)}@example.test`, emailVerified: true });
    const account = await createAccount(server.database.db, { [owner.id]: 'Administrator' });
    await server.database.db.insert(accountMembers).values({ accountId: account.id, userId: existing.id, role: 'Sender' });

    const { token } = await externalPerson({ email });
    const res = await profile(token);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { id: string } }).data.id).toBe(existing.id);
    const list = await fetch(`${server.baseUrl}/v1/accounts/${account.id}/users`, { headers: { authorization: `Bearer ${token}` } });
    expect(list.status).toBe(200);

    const invitedEmail = `inv-${randomUUID().slice(0, 8)}@example.test`;
    await server.database.db.insert(invitations).values({ id: randomUUID(), accountId: account.id, email: invitedEmail, role: 'ReadOnly' });
    const invited = await externalPerson({ email: invitedEmail });
    expect((await profile(invited.token)).status).toBe(200);
    const joined = await findUserByEmail(server.database.db, invitedEmail);
    const [membership] = await server.database.db
      .select()
      .from(accountMembers)
      .where(and(eq(accountMembers.accountId, account.id), eq(accountMembers.userId, joined?.id ?? '')));
    expect(membership?.role).toBe('ReadOnly');
  });

  it('refuses a person whose address the issuer has not verified, and creates nothing', async () => {
    const { person, token } = await externalPerson({ emailVerified: false });
    const res = await profile(token);
    expect(res.status).toBe(401);
    expect(await server.database.db.select().from(users).where(eq(users.email, person.email))).toEqual([]);
  });

  it('leaves tokens of the embedded issuer to their user ids (no mapping there)', async () => {
    const own = await createUser(external.database.db, { email: `own-${randomUUID().slice(0, 8)}@example.test`, password, emailVerified: true });
    const web = await discover(external.config.identity.issuer, 'parley-web');
    const { tokens } = await signInWithPkce(web, `${external.config.publicUrl}/callback`, { email: own.email, password });
    expect(await external.authenticator.authenticate(tokens.access_token)).toEqual({ userId: own.id, accountIds: [] });
  });
});
