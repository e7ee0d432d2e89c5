import fs from 'node:fs/promises';
import { bearerOf } from './browserApi.js';
import { expect, test } from './fixtures.js';
import { e2eAccountName } from './globalSetup.js';
import { signIn } from './signIn.js';

test("tools: a number's carrier and line type from its range, and the caller name of the account's own number", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, '/tools/carrierlookup');
  await expect(page.getByRole('heading', { name: 'Carrier Lookup' })).toBeVisible();
  // No provider here: the page says lookups are free and read the range.
  await expect(page.getByTestId('lookup-price')).toContainText('free');
  await page.getByRole('button', { name: 'Look Up' }).click();
  await expect(page.getByText('Number is required')).toBeVisible();

  await page.getByLabel('Country').click();
  await page.getByRole('option', { name: 'United Kingdom' }).click();
  await page.getByRole('textbox', { name: 'Mobile' }).fill('07400 123456');
  await page.getByRole('button', { name: 'Look Up' }).click();
  const result = page.getByLabel('Lookup result');
  await expect(result).toContainText('Three');
  await expect(result).toContainText('Mobile');
  await expect(result).toContainText("From the number's range data; no charge.");

  // The account's own number, on the simulated network: its caller name is the account's name.
  const headers = await bearerOf(page);
  const accounts = (await (await page.request.get('/v1/accounts?limit=100', { headers })).json()) as { data: { id: string; name: string }[] };
  const accountId = accounts.data.find((a) => a.name === e2eAccountName)?.id ?? '';
  const numbers = (await (await page.request.get(`/v1/accounts/${accountId}/phonenumbers`, { headers })).json()) as { data: { number: string }[] };
  const own = numbers.data[0]?.number ?? '';
  expect(own).not.toBe('');

  await page.goto('/tools/namelookup');
  await expect(page.getByRole('heading', { name: 'Name Lookup' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Number' }).fill(own);
  await page.getByRole('button', { name: 'Look Up' }).click();
  const named = page.getByLabel('Lookup result');
  await expect(named).toContainText(e2eAccountName);
  await expect(named.getByRole('table', { name: 'Suggested names' })).toContainText('Harbor');
  await expect(named).toContainText('Answered by the simulated network; no charge.');

  // "Use these names": the account has no contact with the number yet, so one is added; a second choice renames it.
  const suggested = named.getByRole('table', { name: 'Suggested names' });
  await suggested.getByRole('button', { name: 'Use these names: Harbor Dental' }).click();
  await expect(page.getByText('Added Harbor Dental to Contacts with this number.')).toBeVisible();
  await suggested.getByRole('button', { name: 'Use these names: Dental Harbor' }).click();
  await expect(page.getByText('The contact with this number is now Dental Harbor.')).toBeVisible();
  const base = `/v1/accounts/${accountId}/contacts`;
  const found = (await (await page.request.get(`${base}?mobile=${encodeURIComponent(own)}`, { headers })).json()) as {
    data: { id: string; firstName: string; lastName: string; mobile: { number: string } }[];
  };
  const saved = found.data.filter((c) => c.mobile.number === own);
  expect(saved.map((c) => [c.firstName, c.lastName])).toEqual([['Dental', 'Harbor']]);
  // The shared account keeps no contact of this test.
  expect((await page.request.post(`${base}/remove`, { headers, data: { ids: saved.map((c) => c.id) } })).ok()).toBe(true);
});

test('tools: the screenshot generator draws sample messages as a phone screenshot, previewed and downloaded', async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, '/tools/screenshot');
  await expect(page.getByRole('heading', { name: 'Screenshot Generator' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Name' }).fill('Jordan Lee');
  await page.getByRole('textbox', { name: 'Message 1 text' }).fill('Can I move my appointment to Friday?');
  const add = page.getByRole('button', { name: 'Add message' });
  for (let i = 0; i < 3; i += 1) await add.click();
  await expect(add).toBeDisabled();
  await expect(page.getByTestId('sample-message')).toHaveCount(5);
  // An empty message is refused with the server's message, and no preview is asked for.
  await expect(page.getByText('Write a text or add a picture')).toHaveCount(3);
  await page.getByRole('textbox', { name: 'Message 3 text' }).fill('Friday at 10 works 👍');
  for (const n of [5, 4]) await page.getByRole('button', { name: `Remove message ${String(n)}` }).click();

  const preview = page.getByTestId('screenshot-preview');
  await expect(preview).toBeVisible();
  await expect.poll(() => preview.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0))).toBe(390);

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download PNG (2x)' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('screenshot@2x.png');
  const png = await fs.readFile(await download.path());
  expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([780, 1688]);
});
