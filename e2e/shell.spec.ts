import { expect, test } from './fixtures.js';
import { signIn } from './signIn.js';

test('the home page shows the four tiles and the side menu', async ({ page }) => {
  await signIn(page, '/');
  for (const tile of ['Contacts', 'Conversations', 'Campaigns', 'Templates']) {
    await expect(page.getByRole('main').getByRole('link', { name: tile })).toBeVisible();
  }
  await expect(page.getByRole('navigation').first()).toBeVisible();
});

test('an unknown route shows the 404 page', async ({ page }) => {
  const response = await page.goto('/no/such/page');
  expect(response?.status()).toBe(200);
  await expect(page.getByText('Oops! The Page you requested was not found!')).toBeVisible();
});

test('the API reference opens at /docs', async ({ page }) => {
  await page.goto('/docs');
  await expect(page.getByText('Parley API').first()).toBeVisible();
  await expect(page.getByText('/v1/config').first()).toBeVisible();
});

test('the app is installable: manifest and service worker', async ({ page, request }) => {
  const manifest = await request.get('/manifest.webmanifest');
  expect(manifest.ok()).toBe(true);
  expect(await manifest.json()).toMatchObject({ name: 'Parley', display: 'standalone', start_url: '/' });
  await signIn(page, '/');
  const registered = await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return registration.active?.scriptURL ?? null;
  });
  expect(registered).toMatch(/\/sw\.js$/);
});
