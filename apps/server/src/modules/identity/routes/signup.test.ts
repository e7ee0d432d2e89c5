import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMembers, invitations, userTokens, users } from '../../../platform/db/schema/index.js';
import { hashUserToken, issueUserToken } from '../userTokens.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { createAccount } from '../../../test/factories.js';
import { startIssuerServer } from '../../../test/identity.js';
import { clientAddress, linkIn, mailsTo } from '../../../test/mail.js';
import type { TestServer } from '../../../test/server.js';
import { SIGN_UP_RATE_LIMIT, TOO_MANY_SIGN_UPS } from './signup.js';

const form = (email: string) => ({
  firstName: ' Ada ',
  lastName: 'Lovelace',
  email,
  mobile: { country: 'US', number: '415 555 2671' },
  password: 'Analytical-1843',
  tac: true,
  communication: true,
  promoCode: 'WELCOME',
});

describe.each(testDatabaseKinds)('sign-up and e-mail verification (%s)', (kind) => {
  let server: TestServer;
  let n = 0;
  const newEmail = () => `signup-${String(++n)}-${kind}@example.com`;

  const signUp = (body: unknown, ip = clientAddress()) =>
    fetch(`${server.baseUrl}/v1/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
      body: JSON.stringify(body),
    });
  const open = (url: string) => fetch(url, { redirect: 'manual' });
  const userByEmail = async (email: string) =>
    (await server.database.db.select().from(users).where(eq(users.email, email)))[0];

  beforeAll(async () => {
    server = await startIssuerServer(kind);
  });
  afterAll(async () => {
    await server.stop();
  });

  it('creates the user, mails a working link and verifies the address', async () => {
    const email = newEmail();
    const res = await signUp({ ...form(email.toUpperCase()), redirectTo: '/accounts' });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { data: { id: string; email: string } };
    expect(body.data.email).toBe(email);

    const user = await userByEmail(email);
    expect(user).toMatchObject({
      id: body.data.id,
      firstName: 'Ada',
      lastName: 'Lovelace',
      mobileNumber: '+14155552671',
      mobileCountry: 'US',
      promoCode: 'WELCOME',
      emailVerifiedAt: null,
    });
    expect(user?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(user?.tacAcceptedAt).toBeInstanceOf(Date);
    expect(user?.communicationConsentAt).toBeInstanceOf(Date);

    const [mail] = await mailsTo(server.database.db, email);
    expect(mail?.subject).toBe('Verify your email address for Parley');
    expect(mail?.html).toContain('Verify email address');
    const link = linkIn(mail, `${server.config.publicUrl}/v1/verify?token=`);
    const token = new URL(link).searchParams.get('token') ?? '';
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [stored] = await server.database.db.select().from(userTokens).where(eq(userTokens.userId, body.data.id));
    expect(stored?.tokenHash).toBe(hashUserToken(token));
    expect(stored?.purpose).toBe('verify_email');
    const hours = ((stored?.expiresAt.getTime() ?? 0) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(47.9);
    expect(hours).toBeLessThanOrEqual(48);

    const verified = await open(link);
    expect(verified.status).toBe(303);
    expect(verified.headers.get('location')).toBe('/verified?redirectTo=%2Faccounts');
    expect((await userByEmail(email))?.emailVerifiedAt).toBeInstanceOf(Date);

    const reused = await open(link);
    expect(reused.status).toBe(303);
    expect(reused.headers.get('location')).toBe('/resendverification?error=expired');
  });

  it('passes on only a path of this site as the redirect target of a verification link', async () => {
    const email = newEmail();
    expect((await signUp(form(email))).status).toBe(201);
    const user = await userByEmail(email);
    for (const redirectTo of ['//evil.example/x', '/.//evil.example/x', '/\\evil.example', 'https://evil.example/x', '/\t/evil.example']) {
      const token = await issueUserToken(server.database.db, user?.id ?? '', 'verify_email', 60_000);
      const res = await open(`${server.baseUrl}/v1/verify?${new URLSearchParams({ token, redirectTo }).toString()}`);
      expect(res.status, redirectTo).toBe(303);
      expect(res.headers.get('location'), redirectTo).toBe('/verified');
    }
  });

  it('refuses expired, unknown and missing tokens', async () => {
    const email = newEmail();
    expect((await signUp(form(email))).status).toBe(201);
    const user = await userByEmail(email);
    const expired = await issueUserToken(server.database.db, user?.id ?? '', 'verify_email', -1000);
    for (const query of [`token=${expired}`, 'token=not-a-token', `token=${'A'.repeat(43)}`, '']) {
      const res = await open(`${server.baseUrl}/v1/verify?${query}`);
      expect(res.headers.get('location')).toBe('/resendverification?error=expired');
    }
    expect((await userByEmail(email))?.emailVerifiedAt).toBeNull();
  });

  it('answers each bad field with its message and creates nothing', async () => {
    const email = newEmail();
    const cases: [Record<string, unknown>, string][] = [
      [{ firstName: '  ' }, 'firstName: Required'],
      [{ lastName: '' }, 'lastName: Required'],
      [{ email: '' }, 'email: Required'],
      [{ email: 'ada@' }, 'email: Invalid email address'],
      [{ password: '' }, 'password: Required'],
      [{ password: 'password' }, 'password: Password is too weak\n* At least 10 characters in length'],
      [{ mobile: { country: 'US', number: ' ' } }, 'mobile.number: Number is missing'],
      [{ mobile: { country: 'FR', number: '+33612345678' } }, 'mobile.number: Country is not valid'],
      [{ mobile: { country: 'US', number: '123' } }, 'mobile.number: Country or Number is not valid'],
      [{ tac: false }, 'tac: You must accept the terms and conditions to sign up'],
      [{ communication: false }, 'communication: You must accept to receive communication about your account to sign up'],
    ];
    for (const [change, message] of cases) {
      const res = await signUp({ ...form(email), ...change });
      expect(res.status, message).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('validation_failed');
      expect(body.error.message).toContain(message);
    }
    expect(await userByEmail(email)).toBeUndefined();
  });

  it('answers 409 for a registered address and tells its owner, once an hour', async () => {
    const email = newEmail();
    expect((await signUp(form(email))).status).toBe(201);
    for (let i = 0; i < 2; i++) {
      const res = await signUp({ ...form(email.toUpperCase()), firstName: 'Eve' });
      expect(res.status).toBe(409);
      expect(await res.json()).toEqual({
        error: { code: 'conflict', message: 'An account with this email already exists. Sign in or reset your password.' },
      });
    }
    expect((await userByEmail(email))?.firstName).toBe('Ada');
    const subjects = (await mailsTo(server.database.db, email)).map((m) => m.subject);
    expect(subjects.filter((s) => s === 'You already have a Parley account')).toHaveLength(1);
  });

  it('turns an invitation into a membership once the address is verified', async () => {
    const email = newEmail();
    const account = await createAccount(server.database.db);
    const invitationId = '01900000-0000-7000-8000-000000000001';
    await server.database.db
      .insert(invitations)
      .values({ id: invitationId, accountId: account.id, email, role: 'Sender' })
      .onConflictDoNothing();
    const res = await signUp(form(email));
    const { data } = (await res.json()) as { data: { id: string } };
    const membership = () =>
      server.database.db
        .select()
        .from(accountMembers)
        .where(and(eq(accountMembers.accountId, account.id), eq(accountMembers.userId, data.id)));
    // An unverified address could belong to anyone: no membership yet.
    expect(await membership()).toEqual([]);

    await open(linkIn((await mailsTo(server.database.db, email))[0], `${server.config.publicUrl}/v1/verify`));
    expect((await membership()).map((m) => m.role)).toEqual(['Sender']);
    const [invitation] = await server.database.db.select().from(invitations).where(eq(invitations.id, invitationId));
    expect(invitation?.acceptedAt).toBeInstanceOf(Date);
  });

  it(`allows ${String(SIGN_UP_RATE_LIMIT)} attempts per client address, then 429`, async () => {
    const ip = clientAddress();
    for (let i = 0; i < SIGN_UP_RATE_LIMIT; i++) expect((await signUp({}, ip)).status).toBe(400);
    const refused = await signUp(form(newEmail()), ip);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: { code: 'rate_limited', message: TOO_MANY_SIGN_UPS } });
    expect((await signUp(form(newEmail()))).status).toBe(201);
  });
});
