import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMembers, invitations, users } from '../../../platform/db/schema/index.js';
import { createUser } from '../users.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { createAccount } from '../../../test/factories.js';
import { discover, signInWithPkce, startIssuerServer } from '../../../test/identity.js';
import { linkIn, mailsTo } from '../../../test/mail.js';
import type { TestServer } from '../../../test/server.js';
import { ALREADY_VERIFIED, RESEND_LIMIT, TOO_MANY_RESENDS } from './verification.js';

describe.each(testDatabaseKinds)('resending the verification email (%s)', (kind) => {
  let server: TestServer;
  const password = 'Analytical-1843';

  beforeAll(async () => {
    server = await startIssuerServer(kind);
  });
  afterAll(async () => {
    await server.stop();
  });

  const accessToken = async (email: string) => {
    const config = await discover(server.config.identity.issuer, server.config.identity.clientId);
    const { tokens } = await signInWithPkce(config, `${server.config.publicUrl}/callback`, { email, password });
    return tokens.access_token;
  };
  const resend = (token?: string) =>
    fetch(`${server.baseUrl}/v1/profile/resendverification`, {
      headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    });

  it('mails a new working link, at most 3 times in 15 minutes, and not once verified', async () => {
    const email = `resend-${kind}@example.com`;
    await createUser(server.database.db, { email, password, firstName: 'Ada' });
    const token = await accessToken(email);

    for (let i = 0; i < RESEND_LIMIT; i++) expect((await resend(token)).status).toBe(204);
    const limited = await resend(token);
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({ error: { code: 'rate_limited', message: TOO_MANY_RESENDS } });

    const mails = await mailsTo(server.database.db, email);
    expect(mails).toHaveLength(RESEND_LIMIT);
    const res = await fetch(linkIn(mails[0], `${server.config.publicUrl}/v1/verify?token=`), { redirect: 'manual' });
    expect(res.headers.get('location')).toBe('/verified');

    const verified = await resend(token);
    expect(verified.status).toBe(409);
    expect(await verified.json()).toEqual({ error: { code: 'conflict', message: ALREADY_VERIFIED } });
  });

  it('needs a token', async () => {
    expect((await resend()).status).toBe(401);
    expect((await resend('not-a-token')).status).toBe(401);
  });

  it('accepts invitations of a verified address at sign-in', async () => {
    const email = `invited-${kind}@example.com`;
    const user = await createUser(server.database.db, { email, password, emailVerified: true });
    const account = await createAccount(server.database.db);
    await server.database.db
      .insert(invitations)
      .values({ id: '01900000-0000-7000-8000-000000000002', accountId: account.id, email: email.toUpperCase(), role: 'ReadOnly' });
    await accessToken(email);
    const rows = await server.database.db.select().from(accountMembers).where(eq(accountMembers.userId, user.id));
    expect(rows.map((r) => [r.accountId, r.role])).toEqual([[account.id, 'ReadOnly']]);
    // A second sign-in changes nothing.
    await accessToken(email);
    expect(await server.database.db.select().from(accountMembers).where(eq(accountMembers.userId, user.id))).toHaveLength(1);
    const [row] = await server.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.emailVerifiedAt).toBeInstanceOf(Date);
  });
});
