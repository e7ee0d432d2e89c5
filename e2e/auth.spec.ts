import { expect, test } from './fixtures.js';
import { signIn } from './signIn.js';

test('a visitor is sent to sign in, and comes back to the page asked for', async ({ page }) => {
  await signIn(page, '/campaigns', undefined, undefined, { fresh: true });
  await expect(page).toHaveURL(/\/campaigns$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Campaigns' })).toBeVisible();
});

test('a wrong password gets the one generic message', async ({ page }) => {
  await page.goto('/');
  await page.getByLabel('Email').fill('e2e-admin@example.test');
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Wrong email or password.')).toBeVisible();
});

test('signing out clears the stored state and ends the session', async ({ page }) => {
  await signIn(page, '/', undefined, undefined, { fresh: true });
  await page.evaluate(() => {
    window.localStorage.setItem('parley.account', '{"id":"x"}');
  });
  await page.goto('/logout');
  // Back at the issuer's sign-in form: the session is over, a password is needed again.
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  // What is left is only the pending state of the new sign-in; the user and the app's state are gone.
  const left = await page.evaluate(() => Object.keys(window.localStorage));
  expect(left.filter((k) => k.startsWith('parley.') || k.startsWith('oidc.user'))).toEqual([]);
});

test('another address of the deployment moves to its own address before signing in', async ({ page, baseURL }) => {
  const own = new URL(baseURL ?? '');
  await page.goto(`http://127.0.0.1:${own.port}/campaigns`);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  expect(new URL(page.url()).hostname).toBe('localhost');
});

test('/authorize never takes the account id to another site, however the target is spelled', async ({ page, baseURL }) => {
  const own = new URL(baseURL ?? '').origin;
  const left: string[] = [];
  await page.route(
    (url) => url.hostname === 'evil.example',
    async (route) => {
      left.push(route.request().url());
      await route.fulfill({ status: 200, contentType: 'text/html', body: '<p>elsewhere</p>' });
    },
  );
  await signIn(page, '/', undefined, undefined, { fresh: true });
  for (const redirectTo of ['/.//evil.example/x', `${own}//evil.example/x`, '/\\evil.example', '%2F%2Fevil.example', 'javascript:alert(1)']) {
    await page.goto(`/authorize?${new URLSearchParams({ redirectTo }).toString()}`);
    await page.waitForURL((url) => url.pathname !== '/authorize');
    expect(new URL(page.url()).origin, redirectTo).toBe(own);
  }
  expect(left).toEqual([]);
});
