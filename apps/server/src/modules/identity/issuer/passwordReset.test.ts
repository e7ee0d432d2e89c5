import { eq, sql } from 'drizzle-orm';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oidcPayloads, users } from '../../../platform/db/schema/index.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { browser, discover, signInWithPkce, startIssuerServer } from '../../../test/identity.js';
import { clientAddress, linkIn, mailsTo } from '../../../test/mail.js';
import type { TestServer } from '../../../test/server.js';
import { resetPassword } from '../passwordReset.js';
import { issueUserToken } from '../userTokens.js';
import { createUser } from '../users.js';
import { RESET_MAILS_PER_EMAIL, RESET_REQUESTED, RESET_REQUESTS_PER_CLIENT, TOO_MANY_RESET_REQUESTS } from './passwordResetRoutes.js';
import { escapeHtml } from './html.js';

describe.each(testDatabaseKinds)('password reset (%s)', (kind) => {
  let server: TestServer;
  let callback: string;
  const oldPassword = 'Analytical-1843';
  const newPassword = 'Difference-Engine-1822';

  beforeAll(async () => {
    server = await startIssuerServer(kind);
    callback = `${server.config.publicUrl}/callback`;
  });
  afterAll(async () => {
    await server.stop();
  });

  const signIn = async (email: string, password: string) => {
    const config = await discover(server.config.identity.issuer, server.config.identity.clientId);
    return signInWithPkce(config, callback, { email, password });
  };
  const requestReset = (email: string, ip = clientAddress()) =>
    fetch(`${server.baseUrl}/oidc/forgot`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip },
      body: new URLSearchParams({ email }),
    });

  it('links to the reset page from the sign-in page', async () => {
    const config = await discover(server.config.identity.issuer, server.config.identity.clientId);
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: callback,
      scope: 'openid',
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
    });
    const page = await browser(callback).visit(url.toString());
    expect(page.body).toContain('<a href="/oidc/forgot">Forgot your password?</a>');
    const forgot = await fetch(`${server.baseUrl}/oidc/forgot`);
    expect(forgot.status).toBe(200);
    expect(forgot.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(await forgot.text()).toContain('name="email"');
  });

  it('resets through the pages: mail, weak password refused, new password works, lockout cleared', async () => {
    const email = `reset-${kind}@example.com`;
    const user = await createUser(server.database.db, { email, password: oldPassword, firstName: 'Ada' });
    await server.database.db
      .update(users)
      .set({ failedSignIns: 3, lockedUntil: new Date(Date.now() + 10 * 60_000) })
      .where(eq(users.id, user.id));

    const b = browser(server.config.publicUrl + '/never');
    const known = await b.visit(`${server.baseUrl}/oidc/forgot`, { email: email.toUpperCase() });
    const unknown = await b.visit(`${server.baseUrl}/oidc/forgot`, { email: `nobody-${kind}@example.com` });
    expect(known.status).toBe(200);
    expect(known.body).toContain(escapeHtml(RESET_REQUESTED));
    expect(unknown.body).toBe(known.body);
    expect(await mailsTo(server.database.db, `nobody-${kind}@example.com`)).toEqual([]);

    const [mail] = await mailsTo(server.database.db, email);
    expect(mail?.subject).toBe('Reset your Parley password');
    const link = linkIn(mail, `${server.config.publicUrl}/oidc/reset?token=`);
    const token = new URL(link).searchParams.get('token') ?? '';

    const form = await b.visit(link);
    expect(form.status).toBe(200);
    expect(form.body).toContain(`name="token" value="${token}"`);
    expect(form.body).toContain('At least 10 characters in length');

    const weak = await b.visit(link, { token, password: 'password', confirm: 'password' });
    expect(weak.status).toBe(400);
    expect(weak.body).toContain('Password is too weak');
    const differ = await b.visit(link, { token, password: newPassword, confirm: `${newPassword}x` });
    expect(differ.status).toBe(400);
    expect(differ.body).toContain('The passwords do not match.');

    const done = await b.visit(link, { token, password: newPassword, confirm: newPassword });
    expect(done.status).toBe(200);
    expect(done.body).toContain('Your password has been changed.');
    expect(done.body).toContain(`<a href="${server.config.publicUrl}">Go to Parley</a>`);
    const [row] = await server.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ failedSignIns: 0, lockedUntil: null });
    expect(row?.emailVerifiedAt).toBeInstanceOf(Date);

    const reused = await b.visit(link);
    expect(reused.status).toBe(400);
    expect(reused.body).toContain('This link has expired or was already used.');
    expect((await b.visit(link, { token, password: `${newPassword}!`, confirm: `${newPassword}!` })).body).toContain(
      'This link has expired or was already used.',
    );

    await expect(signIn(email, oldPassword)).rejects.toThrow(/did not return/);
    expect((await signIn(email, newPassword)).tokens.access_token).toBeTruthy();
  });

  it('ends the sessions, grants and refresh tokens issued before the reset, and only that user’s', async () => {
    const email = `revoked-${kind}@example.com`;
    const user = await createUser(server.database.db, { email, password: oldPassword });
    const other = await createUser(server.database.db, { email: `bystander-${kind}@example.com`, password: oldPassword });
    const config = await discover(server.config.identity.issuer, server.config.identity.clientId);
    const before = await signIn(email, oldPassword);
    const bystander = await signIn(other.email, oldPassword);
    // A refresh before the reset works (and rotates the token: the new one is what the app holds).
    const held = (await oidc.refreshTokenGrant(config, before.tokens.refresh_token ?? '')).refresh_token ?? '';
    expect(held).not.toBe('');
    const rows = () =>
      server.database.db
        .select({ model: oidcPayloads.model })
        .from(oidcPayloads)
        .where(sql`${oidcPayloads.payload}->>'accountId' = ${user.id}`);
    expect((await rows()).map((r) => r.model)).toEqual(expect.arrayContaining(['Session', 'Grant', 'RefreshToken']));

    const token = await issueUserToken(server.database.db, user.id, 'reset_password', 60_000);
    expect(await resetPassword(server.database.db, token, newPassword)).toEqual({ ok: true, userId: user.id });

    await expect(oidc.refreshTokenGrant(config, held)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect(await rows()).toEqual([]);
    const refreshed = await oidc.refreshTokenGrant(config, bystander.tokens.refresh_token ?? '');
    expect(refreshed.access_token).toBeTruthy();
  });

  it('refuses an expired link', async () => {
    const user = await createUser(server.database.db, { email: `expired-${kind}@example.com`, password: oldPassword });
    const token = await issueUserToken(server.database.db, user.id, 'reset_password', -1000);
    const page = await browser(server.config.publicUrl + '/never').visit(`${server.baseUrl}/oidc/reset?token=${token}`);
    expect(page.status).toBe(400);
    expect(page.body).toContain('href="/oidc/forgot"');
  });

  it(`mails one address at most ${String(RESET_MAILS_PER_EMAIL)} times and limits each client`, async () => {
    const email = `limited-${kind}@example.com`;
    await createUser(server.database.db, { email, password: oldPassword });
    for (let i = 0; i < RESET_MAILS_PER_EMAIL + 2; i++) expect((await requestReset(email)).status).toBe(200);
    expect(await mailsTo(server.database.db, email)).toHaveLength(RESET_MAILS_PER_EMAIL);

    const ip = clientAddress();
    for (let i = 0; i < RESET_REQUESTS_PER_CLIENT; i++) expect((await requestReset(`x${String(i)}@example.com`, ip)).status).toBe(200);
    const refused = await requestReset('y@example.com', ip);
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain(escapeHtml(TOO_MANY_RESET_REQUESTS));
  });

  it('asks for a valid address', async () => {
    const res = await requestReset('not an address');
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('Invalid email address');
  });
});
