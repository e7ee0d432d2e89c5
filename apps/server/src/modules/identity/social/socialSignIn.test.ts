import { eq } from 'drizzle-orm';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userIdentities, users } from '../../../platform/db/schema/index.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { discover, freePort, signInWithPkce } from '../../../test/identity.js';
import { clientAddress } from '../../../test/mail.js';
import { startTestServer, type TestServer } from '../../../test/server.js';
import { startUpstreamIssuer, twoIssuerBrowser, type UpstreamIssuer, type UpstreamPerson } from '../../../test/upstreamIssuer.js';
import { escapeHtml } from '../issuer/html.js';
import { SOCIAL_EXPIRED, socialMessages, TOO_MANY_ATTEMPTS, UNKNOWN_PROVIDER } from '../issuer/socialRoutes.js';
import { createUser } from '../users.js';

const PROVIDER = 'upstream';
const PROVIDER_NAME = 'Upstream ID';

describe.each(testDatabaseKinds)('social sign-in through an upstream issuer (%s)', (kind) => {
  let server: TestServer;
  let upstream: UpstreamIssuer;
  let publicUrl: string;
  let callback: string;
  let socialCallback: string;

  beforeAll(async () => {
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${String(port)}`;
    callback = `${publicUrl}/callback`;
    socialCallback = `${publicUrl}/oidc/social/${PROVIDER}/callback`;
    upstream = await startUpstreamIssuer([socialCallback]);
    const providers = [{ id: PROVIDER, name: PROVIDER_NAME, issuer: upstream.issuer, clientId: upstream.clientId, clientSecret: upstream.clientSecret }];
    server = await startTestServer(kind, { PORT: String(port), PUBLIC_URL: publicUrl, SERVICES: 'web', TRUST_PROXY: 'loopback', SOCIAL_PROVIDERS: JSON.stringify(providers) });
  });
  afterAll(async () => {
    await server.stop();
    await upstream.close();
  });

  const person = (sub: string, claims: UpstreamPerson) => {
    upstream.people.set(sub, claims);
    return sub;
  };

  /** The web app's authorization request, as oidc-client-ts sends it. */
  const authorization = async (extra: Record<string, string> = {}) => {
    const config = await discover(server.config.identity.issuer, server.config.identity.clientId);
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: callback,
      scope: 'openid profile email offline_access',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      ...extra,
    });
    const exchange = (back: string) => oidc.authorizationCodeGrant(config, new URL(back), { pkceCodeVerifier: verifier, expectedState: state });
    return { url: url.toString(), exchange };
  };

  /** Parley's sign-in page → 'Continue with Upstream ID' → the upstream's sign-in form. */
  const toUpstream = async (b: ReturnType<typeof twoIssuerBrowser>) => {
    const request = await authorization();
    const signIn = await b.visit(request.url, { stopAt: [callback] });
    expect(signIn.status).toBe(200);
    const href = /<a class="social" href="([^"]+)">Continue with Upstream ID<\/a>/.exec(signIn.body)?.[1];
    if (href === undefined) throw new Error(`no social link on: ${signIn.body}`);
    const form = await b.visit(new URL(href, publicUrl).toString());
    expect(form.url.startsWith(`${upstream.issuer}/interaction/`)).toBe(true);
    expect(form.body).toContain('name="login"');
    return { ...request, signIn, form };
  };

  /** The whole round trip; answers the page Parley shows, or the tokens when it came back with a code. */
  const socialSignIn = async (sub: string, b = twoIssuerBrowser(clientAddress())) => {
    const { form, exchange } = await toUpstream(b);
    const back = await b.visit(form.url, { form: { prompt: 'login', login: sub, password: 'any' }, stopAt: [callback] });
    if (!back.url.startsWith(callback)) return { page: back, tokens: null };
    return { page: back, tokens: await exchange(back.url) };
  };

  const identities = (userId: string) =>
    server.database.db.select().from(userIdentities).where(eq(userIdentities.userId, userId));
  const userByEmail = async (email: string) => (await server.database.db.select().from(users).where(eq(users.email, email)))[0];

  it('offers one button per provider on the sign-in page', async () => {
    const { signIn } = await toUpstream(twoIssuerBrowser(clientAddress()));
    expect(signIn.body).toMatch(/<a class="social" href="\/oidc\/interaction\/[^"/]+\/social\/upstream">Continue with Upstream ID<\/a>/);
    expect(signIn.body).toContain('name="password"');
  });

  it('creates a new user (verified, no password) and signs them in; the next time finds the same user', async () => {
    const sub = person(`new-${kind}`, { email: `Newcomer-${kind}@Example.com`, email_verified: true, given_name: 'Nia', family_name: 'Nova' });
    const first = await socialSignIn(sub);
    if (!first.tokens) throw new Error(`not signed in: ${first.page.body}`);
    const user = await userByEmail(`newcomer-${kind}@example.com`);
    expect(user).toMatchObject({ passwordHash: null, firstName: 'Nia', lastName: 'Nova', tacAcceptedAt: null });
    expect(user?.emailVerifiedAt).toBeInstanceOf(Date);
    expect(first.tokens.claims()).toMatchObject({ sub: user?.id, email: `newcomer-${kind}@example.com`, email_verified: true });
    expect(await server.authenticator.authenticate(first.tokens.access_token)).toEqual({ userId: user?.id, accountIds: [] });
    expect(first.tokens.refresh_token).toBeTruthy();

    // Returning: the same upstream subject, even with another address there now, is the same user.
    upstream.people.set(sub, { email: `renamed-${kind}@example.com`, email_verified: true });
    const again = await socialSignIn(sub);
    expect(again.tokens?.claims()?.sub).toBe(user?.id);
    const links = await identities(user?.id ?? '');
    expect(links).toHaveLength(1);
    expect(links[0]).toMatchObject({ provider: PROVIDER, subject: sub, email: `renamed-${kind}@example.com` });
    expect(links[0]?.lastSignInAt?.getTime()).toBeGreaterThan(links[0]?.createdAt.getTime() ?? Infinity);
    expect(await userByEmail(`renamed-${kind}@example.com`)).toBeUndefined();
  });

  it('links a user with the same verified address, who keeps their password', async () => {
    const password = 'Linked-Password-2026';
    const linda = await createUser(server.database.db, { email: `linda-${kind}@example.com`, password, emailVerified: true });
    const sub = person(`linda-up-${kind}`, { email: `LINDA-${kind}@example.com`, email_verified: true });
    const { tokens } = await socialSignIn(sub);
    expect(tokens?.claims()?.sub).toBe(linda.id);
    expect((await identities(linda.id)).map((i) => i.subject)).toEqual([sub]);
    const config = await discover(server.config.identity.issuer, server.config.identity.clientId);
    const withPassword = await signInWithPkce(config, callback, { email: linda.email, password });
    expect(withPassword.tokens.claims()?.sub).toBe(linda.id);
  });

  it('linking an address nobody had verified drops the password set for it and that password’s sessions', async () => {
    const password = 'Squatted-Password-2026';
    const squatted = await createUser(server.database.db, { email: `owner-${kind}@example.com`, password });
    const config = await discover(server.config.identity.issuer, server.config.identity.clientId);
    const squatter = await signInWithPkce(config, callback, { email: squatted.email, password });

    const { tokens } = await socialSignIn(person(`owner-up-${kind}`, { email: squatted.email, email_verified: true }));
    expect(tokens?.claims()?.sub).toBe(squatted.id);
    const row = await userByEmail(squatted.email);
    expect(row?.passwordHash).toBeNull();
    expect(row?.emailVerifiedAt).toBeInstanceOf(Date);
    await expect(oidc.refreshTokenGrant(config, squatter.tokens.refresh_token ?? '')).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(signInWithPkce(config, callback, { email: squatted.email, password })).rejects.toThrow(/did not return/);
  });

  it('refuses an unverified upstream address that a Parley user has, and one nobody has, changing nothing', async () => {
    const uma = await createUser(server.database.db, { email: `uma-${kind}@example.com`, password: 'Uma-Password-2026', emailVerified: true });
    const taken = await socialSignIn(person(`uma-up-${kind}`, { email: uma.email, email_verified: false }));
    expect(taken.tokens).toBeNull();
    expect(taken.page.status).toBe(403);
    expect(taken.page.body).toContain(escapeHtml(socialMessages.unverified_email_in_use(PROVIDER_NAME)));
    expect(taken.page.body).toContain('name="password"');
    expect(await identities(uma.id)).toEqual([]);
    expect((await userByEmail(uma.email))?.passwordHash).toBe(uma.passwordHash);

    const fresh = await socialSignIn(person(`nobody-up-${kind}`, { email: `unverified-${kind}@example.com` }));
    expect(fresh.page.status).toBe(403);
    expect(fresh.page.body).toContain(escapeHtml(socialMessages.unverified_email(PROVIDER_NAME)));
    expect(await userByEmail(`unverified-${kind}@example.com`)).toBeUndefined();

    const noEmail = await socialSignIn(person(`no-email-${kind}`, {}));
    expect(noEmail.page.status).toBe(403);
    expect(noEmail.page.body).toContain(escapeHtml(socialMessages.no_email(PROVIDER_NAME)));
  });

  it('refuses a tampered state, a replayed callback and a callback carried to another browser', async () => {
    const sub = person(`careful-${kind}`, { email: `careful-${kind}@example.com`, email_verified: true });
    const b = twoIssuerBrowser(clientAddress());
    const { form, exchange } = await toUpstream(b);
    const atCallback = await b.visit(form.url, { form: { prompt: 'login', login: sub, password: 'any' }, stopAt: [socialCallback] });
    const returned = new URL(atCallback.url);
    expect(returned.searchParams.get('code')).toBeTruthy();

    const tampered = new URL(returned);
    tampered.searchParams.set('state', `${returned.searchParams.get('state') ?? ''}x`);
    const refused = await b.visit(tampered.toString(), { stopAt: [callback] });
    expect(refused.status).toBe(400);
    expect(refused.body).toContain(escapeHtml(SOCIAL_EXPIRED));

    // Someone else's browser (no interaction cookie) given this callback gets nowhere.
    const elsewhere = await twoIssuerBrowser(clientAddress()).visit(returned.toString(), { stopAt: [callback] });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body).toContain(escapeHtml(SOCIAL_EXPIRED));

    // Nor does a browser in the middle of its own sign-in (login CSRF: signing the victim in as someone else).
    const victim = twoIssuerBrowser(clientAddress());
    await toUpstream(victim);
    const csrf = await victim.visit(returned.toString(), { stopAt: [callback] });
    expect(csrf.status).toBe(400);
    expect(csrf.body).toContain(escapeHtml(SOCIAL_EXPIRED));

    const done = await b.visit(returned.toString(), { stopAt: [callback] });
    expect(done.url.startsWith(callback)).toBe(true);
    expect((await exchange(done.url)).claims()?.email).toBe(`careful-${kind}@example.com`);
    expect((await b.visit(returned.toString(), { stopAt: [callback] })).status).toBe(400);
  });

  it('relays a callback only to its own interaction and ends on the registered callback, whatever the query names', async () => {
    const sub = person(`relayed-${kind}`, { email: `relayed-${kind}@example.com`, email_verified: true });
    const b = twoIssuerBrowser(clientAddress());
    const { form, exchange } = await toUpstream(b);
    const atCallback = await b.visit(form.url, { form: { prompt: 'login', login: sub, password: 'any' }, stopAt: [socialCallback] });
    const returned = new URL(atCallback.url);
    const targets: [string, string][] = [['redirectTo', 'https://evil.example/x'], ['return', '//evil.example/x'], ['next', '/.//evil.example/x']];
    for (const [name, value] of targets) {
      returned.searchParams.set(name, value);
    }
    const relay = await fetch(returned, { redirect: 'manual' });
    expect(relay.status).toBe(303);
    const location = new URL(relay.headers.get('location') ?? '', publicUrl);
    expect(location.origin).toBe(publicUrl);
    expect(location.pathname).toMatch(new RegExp(`^/oidc/interaction/[^/]+/social/${PROVIDER}/callback$`));
    const done = await b.visit(returned.toString(), { stopAt: [callback] });
    expect(done.url.startsWith(`${callback}?`)).toBe(true);
    expect((await exchange(done.url)).claims()?.email).toBe(`relayed-${kind}@example.com`);
  });

  it('shows the upstream’s refusal on the sign-in page', async () => {
    const b = twoIssuerBrowser(clientAddress());
    const { form } = await toUpstream(b);
    const aborted = await b.visit(`${form.url}/abort`, { stopAt: [callback] });
    expect(aborted.status).toBe(400);
    expect(aborted.body).toContain(escapeHtml(socialMessages.upstreamError(PROVIDER_NAME, 'access_denied')));
    expect(aborted.body).toContain('name="password"');
  });

  it('answers an unknown provider with a page that says so', async () => {
    const b = twoIssuerBrowser(clientAddress());
    const request = await authorization();
    const signIn = await b.visit(request.url, { stopAt: [callback] });
    const uid = /\/oidc\/interaction\/([^/"]+)/.exec(signIn.url)?.[1] ?? '';
    for (const url of [`${publicUrl}/oidc/interaction/${uid}/social/nope`, `${publicUrl}/oidc/social/nope/callback?state=x&code=y`]) {
      const page = await b.visit(url);
      expect(page.status).toBe(404);
      expect(page.body).toContain(escapeHtml(UNKNOWN_PROVIDER));
    }
  });

  it('goes straight to the provider named by idp_hint (the app’s Continue with … button)', async () => {
    const b = twoIssuerBrowser(clientAddress());
    const request = await authorization({ idp_hint: PROVIDER });
    const page = await b.visit(request.url, { stopAt: [callback] });
    expect(page.url.startsWith(`${upstream.issuer}/interaction/`)).toBe(true);
    const sub = person(`hinted-${kind}`, { email: `hinted-${kind}@example.com`, email_verified: true });
    const back = await b.visit(page.url, { form: { prompt: 'login', login: sub, password: 'any' }, stopAt: [callback] });
    expect((await request.exchange(back.url)).claims()?.email).toBe(`hinted-${kind}@example.com`);
  });

  it('counts callbacks against the sign-in rate limit of the client address', async () => {
    const address = clientAddress();
    const b = twoIssuerBrowser(address);
    const { form, signIn } = await toUpstream(b);
    const atCallback = await b.visit(form.url, { form: { prompt: 'login', login: 'rate', password: 'any' }, stopAt: [socialCallback] });
    // Twenty wrong passwords from the same address use up its window.
    for (let i = 0; i < 20; i++) {
      const wrong = await b.visit(signIn.url, { form: { email: 'x@example.com', password: 'wrong' } });
      expect(wrong.status).toBe(401);
    }
    const limited = await b.visit(atCallback.url, { stopAt: [callback] });
    expect(limited.status).toBe(429);
    expect(limited.body).toContain(escapeHtml(TOO_MANY_ATTEMPTS));
  });
});
