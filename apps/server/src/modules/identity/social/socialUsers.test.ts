import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../platform/db/client.js';
import { oidcPayloads, userIdentities, users } from '../../../platform/db/schema/index.js';
import { openTestDatabase, testDatabaseKinds } from '../../../test/databases.js';
import { createUser } from '../users.js';
import { resolveSocialUser } from './socialUsers.js';
import type { UpstreamClaims } from './upstream.js';

const claims = (sub: string, email: string | null, emailVerified = true): UpstreamClaims => ({
  sub,
  email,
  emailVerified,
  givenName: 'Sam',
  familyName: 'Social',
});

describe.each(testDatabaseKinds)('resolveSocialUser (%s)', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  it('creates, then returns, the user of a subject', async () => {
    const first = await resolveSocialUser(database.db, 'google', claims('g-1', ' Sam@Example.com '));
    expect(first).toMatchObject({ ok: true, how: 'created' });
    const again = await resolveSocialUser(database.db, 'google', claims('g-1', 'other@example.com', false));
    expect(again).toEqual({ ok: true, how: 'returning', userId: first.ok ? first.userId : '' });
    const [row] = await database.db.select().from(users).where(eq(users.email, 'sam@example.com'));
    expect(row).toMatchObject({ firstName: 'Sam', lastName: 'Social', passwordHash: null });
    // Another provider's subject with the same value is someone else's identity (here: linked by address).
    expect(await resolveSocialUser(database.db, 'other', claims('g-1', 'sam@example.com'))).toMatchObject({ how: 'linked', userId: row?.id });
  });

  it('refuses without a usable or verified address and changes nothing', async () => {
    await createUser(database.db, { email: 'taken@example.com', password: 'Taken-Password-2026', emailVerified: true });
    expect(await resolveSocialUser(database.db, 'google', claims('g-2', null))).toEqual({ ok: false, reason: 'no_email' });
    expect(await resolveSocialUser(database.db, 'google', claims('g-2', 'not an address'))).toEqual({ ok: false, reason: 'no_email' });
    expect(await resolveSocialUser(database.db, 'google', claims('g-2', 'fresh@example.com', false))).toEqual({
      ok: false,
      reason: 'unverified_email',
    });
    expect(await resolveSocialUser(database.db, 'google', claims('g-2', 'TAKEN@example.com', false))).toEqual({
      ok: false,
      reason: 'unverified_email_in_use',
    });
    expect(await database.db.select().from(userIdentities).where(eq(userIdentities.subject, 'g-2'))).toEqual([]);
    expect(await database.db.select().from(users).where(eq(users.email, 'fresh@example.com'))).toEqual([]);
  });

  it('keeps a verified user’s password and sessions when linking, and ends an unverified one’s', async () => {
    const verified = await createUser(database.db, { email: 'kept@example.com', password: 'Kept-Password-2026', emailVerified: true });
    const unverified = await createUser(database.db, { email: 'squat@example.com', password: 'Squat-Password-2026' });
    await database.db.insert(oidcPayloads).values([
      { model: 'Session', id: 'kept-session', payload: { accountId: verified.id } },
      { model: 'Session', id: 'squat-session', payload: { accountId: unverified.id } },
    ]);
    await resolveSocialUser(database.db, 'google', claims('g-kept', 'kept@example.com'));
    await resolveSocialUser(database.db, 'google', claims('g-squat', 'squat@example.com'));
    const [kept] = await database.db.select().from(users).where(eq(users.id, verified.id));
    const [squat] = await database.db.select().from(users).where(eq(users.id, unverified.id));
    expect(kept?.passwordHash).toBe(verified.passwordHash);
    expect(squat?.passwordHash).toBeNull();
    expect(squat?.emailVerifiedAt).toBeInstanceOf(Date);
    const sessions = await database.db.select({ id: oidcPayloads.id }).from(oidcPayloads).where(eq(oidcPayloads.model, 'Session'));
    expect(sessions.map((s) => s.id)).toEqual(['kept-session']);
  });

  it('gives concurrent first sign-ins of one subject one user and one identity', async () => {
    const outcomes = await Promise.all(Array.from({ length: 4 }, () => resolveSocialUser(database.db, 'google', claims('g-race', 'race@example.com'))));
    const ids = new Set(outcomes.map((o) => (o.ok ? o.userId : 'refused')));
    expect(ids.size).toBe(1);
    expect(await database.db.select().from(userIdentities).where(eq(userIdentities.subject, 'g-race'))).toHaveLength(1);
  });
});
