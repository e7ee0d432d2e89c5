import { readFile } from 'node:fs/promises';
import { createdId, signInToFreshAccount } from './browserApi.js';
import { expect, test } from './fixtures.js';
import { openSettings } from './settingsDialog.js';

/*
 * /links/urlshortener and /links/customdomains: an administrator adds a link (the form refusing a bad URL),
 * follows its short URL, edits and removes it; adds a custom domain and sees the DNS records to create.
 * A tracked link sent to two contacts counts the click of the one who opened it in the tracking CSV.
 * With auto link shortening chosen on the Plan tab, the message editor counts and shows the shortened text.
 * Screenshots at 1366 and 390 px go to the test's output folder.
 */

const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

test('an administrator adds, follows, edits and removes a short link', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const api = await signInToFreshAccount(page, 'Link Works');
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
  await signInToFreshAccount(page, 'Domain Works');
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

test('a tracked link sent to two contacts ties a click to the contact who opened it', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const api = await signInToFreshAccount(page, 'Tracking Works');
  const quiet = await page.request.put(`/v1/accounts/${api.accountId}`, {
    headers: api.headers,
    data: { quietHours: { enabled: false, start: '08:00', end: '21:00' } },
  });
  expect(quiet.status(), await quiet.text()).toBe(200);
  await page.setViewportSize({ width: 1366, height: 800 });
  await page.goto('/links/urlshortener');
  await page.getByRole('main').getByRole('button', { name: 'Add Link' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add A Link' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Tracked offer');
  await dialog.getByRole('textbox', { name: 'Destination URL' }).fill('https://shop.example.test/offer');
  await dialog.getByRole('switch', { name: /Contact tracking/ }).check();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();

  const listed = await page.request.get(`/v1/accounts/${api.accountId}/links`, { headers: api.headers });
  const [link] = ((await listed.json()) as { data: { shortenedUrl: string; contactTracking: boolean }[] }).data;
  expect(link?.contactTracking).toBe(true);
  const contactIds: string[] = [];
  for (const [firstName, last] of [['Ada', 2], ['Bob', 3]] as const) {
    const mobile = `+1415555${String(last * 1000 + Math.floor(Math.random() * 1000))}`;
    const made = await page.request.post(`/v1/accounts/${api.accountId}/contacts`, {
      headers: api.headers,
      data: { firstName, lastName: 'Tracked', mobile: { number: mobile, country: 'US' } },
    });
    expect(made.status(), await made.text()).toBe(201);
    contactIds.push(await createdId(made));
  }
  const sent = await page.request.post(`/v1/accounts/${api.accountId}/messages`, {
    headers: api.headers,
    data: { contacts: contactIds.map((id) => ({ id })), template: `Our offer: ${link?.shortenedUrl ?? ''}` },
  });
  expect(sent.status(), await sent.text()).toBeLessThan(300);

  // Each contact got its own short URL; Ada's phone opens hers.
  const messages = await page.request.get(`/v1/accounts/${api.accountId}/messages?limit=10`, { headers: api.headers });
  const texts = ((await messages.json()) as { data: { message: string; contact: { id: string } }[] }).data;
  const [adaId, bobId] = contactIds;
  const adaText = texts.find((m) => m.contact.id === adaId)?.message ?? '';
  const bobText = texts.find((m) => m.contact.id === bobId)?.message ?? '';
  const adaUrl = /https?:\/\/\S+/.exec(adaText)?.[0] ?? '';
  expect(adaUrl).not.toBe(link?.shortenedUrl);
  expect(bobText).not.toContain(adaUrl);
  const opened = await page.request.get(new URL(adaUrl).pathname, { maxRedirects: 0, headers: { 'user-agent': PHONE } });
  expect(opened.status()).toBe(302);
  expect(opened.headers().location).toBe('https://shop.example.test/offer');

  // Clicks are written within a second; the CSV then shows Ada's click and none for Bob.
  const row = page.getByRole('grid', { name: 'Links' }).getByRole('row').filter({ hasText: 'Tracked offer' });
  const download = row.getByRole('button', { name: 'Download contact tracking of the link Tracked offer' });
  await expect
    .poll(async () => {
      const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
      return readFile(await file.path(), 'utf8');
    }, { timeout: 15_000 })
    .toMatch(/^Ada Tracked,.*,1\r?$/m);
  const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
  const csv = await readFile(await file.path(), 'utf8');
  expect(csv.split('\r\n')[0]).toBe('contact,number,message,first click,clicks');
  expect(csv).toMatch(/^Bob Tracked,[^,]+,[^,]+,,0\r?$/m);
  await page.screenshot({ path: testInfo.outputPath('links-tracking-1366.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(row.getByRole('button', { name: 'Edit the link Tracked offer' })).toBeInViewport();
  await page.screenshot({ path: testInfo.outputPath('links-tracking-390.png'), fullPage: true });
});

test('auto link shortening: chosen on the Plan tab, the editor shows the text as it will be sent', async ({ page }, testInfo) => {
  test.setTimeout(60_000);
  await signInToFreshAccount(page, 'Short Links');
  await page.setViewportSize({ width: 1366, height: 800 });
  await page.goto('/');
  const settings = await openSettings(page);
  const select = settings.getByRole('combobox', { name: 'Auto link shortening' });
  await expect(select).toHaveText(/-- Disabled --/);
  await select.click();
  await page.getByRole('option').nth(1).click();
  await expect(select).not.toHaveText(/-- Disabled --/);
  await select.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('auto-links-plan-1366.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(select).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('auto-links-plan-390.png') });
  await page.keyboard.press('Escape');

  await page.setViewportSize({ width: 1366, height: 800 });
  await page.goto('/templates/sms');
  await page.getByRole('main').getByRole('button', { name: 'Add Template' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Template' });
  const url = `https://shop.example.test/autumn/collection?utm_source=sms&utm_campaign=${'a'.repeat(60)}`;
  await dialog.getByRole('textbox', { name: 'Message' }).fill(`Autumn picks: ${url} ${'See you soon. '.repeat(3)}`);
  await expect(dialog.getByText(/^Sent as: Autumn picks: https?:\/\/\S+\/xxxxxxx /)).toBeVisible();
  await expect(dialog.getByText(/· 1 segment ·/)).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('auto-links-editor-1366.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: testInfo.outputPath('auto-links-editor-390.png') });
});
