import { expect, test } from './fixtures.js';
import { freePort, startParley, type ParleyServer } from './parleyServer.js';
import { submitSignIn } from './signIn.js';

// A second Parley acts as the external OpenID Connect issuer of a third one (OIDC_ISSUER), as Keycloak
// or Auth0 would: the person signs in on the issuer's pages, and the app's API accepts the issuer's
// tokens through its JWKS and finds its own user by the verified address in them. The global setup's
// server is not involved.

const person = { email: 'iris.external@example.test', password: 'Issuer-Side-Secret-2026' };
const accountName = 'Lakeside Clinic';

let issuer: ParleyServer;
let app: ParleyServer;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const appPort = await freePort();
  const appUrl = `http://localhost:${String(appPort)}`;
  let issuerPort = await freePort();
  while (issuerPort === appPort) issuerPort = await freePort();
  // Both start at once: the app looks up its issuer only when a token comes (tokenVerifier.ts), not at its start.
  const [issuerStart, appStart] = await Promise.allSettled([
    startParley({
      port: issuerPort,
      env: { OIDC_EXTRA_WEB_ORIGINS: appUrl, OIDC_AUDIENCE: `${appUrl}/v1` },
      setup: [['create-user', '--email', person.email, '--password', person.password, '--first-name', 'Iris', '--last-name', 'External', '--verified']],
    }),
    startParley({
      port: appPort,
      env: { OIDC_ISSUER: `http://localhost:${String(issuerPort)}/oidc`, OIDC_CLIENT_ID: 'parley-web' },
      // The app's own user with that address (its password is never used here) owns an account.
      setup: [
        ['create-user', '--email', person.email, '--password', 'Unused-App-Password-2026', '--verified'],
        ['create-account', '--owner', person.email, '--name', accountName],
      ],
    }),
  ]);
  if (issuerStart.status === 'fulfilled' && appStart.status === 'fulfilled') {
    [issuer, app] = [issuerStart.value, appStart.value];
    return;
  }
  // One did not start: stop the other, and fail with the reason.
  for (const start of [issuerStart, appStart]) if (start.status === 'fulfilled') await start.value.stop();
  throw issuerStart.status === 'rejected' ? issuerStart.reason : (appStart as PromiseRejectedResult).reason;
});

test.afterAll(async () => {
  await app.stop();
  await issuer.stop();
});

test('the web app signs in at the external issuer and works with its tokens', async ({ page }) => {
  test.setTimeout(90_000);
  const visited: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) visited.push(frame.url());
  });

  const config = (await (await page.request.get(`${app.url}/v1/config`)).json()) as { auth: { issuer: string; clientId: string } };
  expect(config.auth).toMatchObject({ issuer: `${issuer.url}/oidc`, clientId: 'parley-web' });
  expect((await page.request.get(`${app.url}/oidc/.well-known/openid-configuration`)).status()).toBe(404);

  await page.goto(`${app.url}/`);
  await page.waitForURL((url) => url.href.startsWith(`${issuer.url}/oidc/interaction/`));
  await submitSignIn(page, person);
  await page.waitForURL((url) => url.origin === app.url && url.pathname !== '/callback');
  // First login in this app: terms, then the mobile number, then the account to work in.
  const terms = page.getByRole('dialog', { name: 'Terms and Conditions' });
  await terms.getByRole('button', { name: 'Yes' }).click();
  const profile = page.getByRole('dialog', { name: 'Profile' });
  // The app's own user (linked by the verified address) has no name yet.
  await expect(profile.getByLabel('First Name')).toHaveValue('');
  await profile.getByLabel('First Name').fill('Iris');
  await profile.getByLabel('Last Name').fill('External');
  await profile.getByLabel('Mobile').fill('415 555 2671');
  await profile.getByRole('button', { name: 'Save' }).click();
  const chosen = page.getByTestId('account-name');
  await expect(chosen.or(page.getByRole('button', { name: `Select ${accountName}` }))).toBeVisible();
  if (!(await chosen.isVisible())) await page.getByRole('button', { name: `Select ${accountName}` }).click();
  await expect(chosen).toHaveText(accountName);
  expect(new URL(page.url()).origin).toBe(app.url);
  expect(visited.filter((url) => new URL(url).origin === issuer.url).length).toBeGreaterThan(0);
  // An administrator of the account: the settings open and list the account's users from the API.
  await page.getByRole('button', { name: /^Account settings/ }).click();
  const settings = page.getByRole('dialog', { name: 'Account Settings' });
  await settings.getByRole('tab', { name: 'Users' }).click();
  await expect(settings.getByRole('row').filter({ hasText: person.email })).toContainText('Administrator');
  await settings.getByRole('button', { name: 'Close', exact: true }).click();

  // Signing out ends the issuer's session and comes back to the app, which asks the issuer again.
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  expect(new URL(page.url()).origin).toBe(issuer.url);
});
