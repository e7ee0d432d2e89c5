import { freshAccount } from './browserApi.js';
import { expect, test } from './fixtures.js';
import { signIn } from './signIn.js';

/*
 * /links/urlshortener and /links/customdomains: an administrator adds a link (the form refusing a bad URL),
 * follows its short URL, edits and removes it; adds a custom domain and sees the DNS records to create.
 * Screenshots at 1366 and 390 px go to the test's output folder.
 */

test('an administrator adds, follows, edits and removes a short link', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  await signIn(page, '/');
  const api = await freshAccount(page, 'Link Works');
  await page.setViewportSize({ width: 1366, height: 800 });
  await page.goto('/links/urlshortener');
  const grid = page.getByRole('grid', { name: 'Links' });
  await expect(grid.getByText('No Links Exist')).toBeVisible();

  await page.getByRole('main').getByRole('button', { name: 'Add Link' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add A Link' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Spring sale');
  await dialog.getByRole('textbox', { name: 'Destination URL' }).fill('shop.example.test/spring');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Valid URL with http or https prefix required')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Destination URL' }).fill('https://shop.example.test/spring');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const row = grid.getByRole('row').filter({ hasText: 'Spring sale' });
  await expect(row).toContainText('https://shop.example.test/spring');
  await page.screenshot({ path: testInfo.outputPath('links-1366.png') });

  const listed = await page.request.get(`/v1/accounts/${api.accountId}/links`, { headers: api.headers });
  const [link] = ((await listed.json()) as { data: { shortenedUrl: string; id: string }[] }).data;
  const shortPath = new URL(link?.shortenedUrl ?? '').pathname;
  const followed = await page.request.get(shortPath, { maxRedirects: 0 });
  expect(followed.status()).toBe(302);
  expect(followed.headers().location).toBe('https://shop.example.test/spring');

  await row.getByRole('button', { name: 'Edit the link Spring sale' }).click();
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Summer sale');
  await dialog.getByRole('button', { name: 'Save' }).click();
  const edited = grid.getByRole('row').filter({ hasText: 'Summer sale' });
  await expect(edited).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: testInfo.outputPath('links-390.png'), fullPage: true });
  await page.setViewportSize({ width: 1366, height: 800 });
  await edited.getByRole('button', { name: 'Remove the link Summer sale' }).click();
  await page.getByRole('dialog', { name: 'Remove Link' }).getByRole('button', { name: 'Remove' }).click();
  await expect(grid.getByText('No Links Exist')).toBeVisible();
  expect((await page.request.get(shortPath, { maxRedirects: 0 })).status()).toBe(404);
});

test('an administrator adds a custom domain and sees the DNS records to create', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  await signIn(page, '/');
  await freshAccount(page, 'Domain Works');
  await page.setViewportSize({ width: 1366, height: 800 });
  await page.goto('/links/customdomains');
  const grid = page.getByRole('grid', { name: 'Custom Domains' });
  await expect(grid.getByText('No Custom Domains Exist')).toBeVisible();
  await page.getByRole('main').getByRole('button', { name: 'Add Domain' }).click();
  const add = page.getByRole('dialog', { name: 'Add Custom Domain' });
  await add.getByRole('textbox', { name: 'Domain' }).fill('not a domain');
  await add.getByRole('button', { name: 'Add' }).click();
  await expect(add.getByText('Valid URL required')).toBeVisible();
  const name = `go.e2e-${String(Date.now())}.test`;
  await add.getByRole('textbox', { name: 'Domain' }).fill(`https://www.${name}`);
  await add.getByRole('button', { name: 'Add' }).click();
  const verify = page.getByRole('dialog', { name: `Verify ${name}` });
  await expect(verify.getByRole('table', { name: 'DNS records' })).toContainText('CNAME');
  await page.screenshot({ path: testInfo.outputPath('domains-verify-1366.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: testInfo.outputPath('domains-verify-390.png') });
  await verify.getByRole('button', { name: 'Cancel' }).click();
  await expect(grid.getByRole('row').filter({ hasText: name })).toContainText('Not verified');
  await page.screenshot({ path: testInfo.outputPath('domains-390.png'), fullPage: true });
});
