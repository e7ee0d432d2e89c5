import type { Locator, Page } from '@playwright/test';
import { bearerOf, freshAccount, type BrowserApi } from './browserApi.js';
import { expect, test } from './fixtures.js';
import { e2eTopUpAccountName, e2eTwoLines } from './globalSetup.js';
import { openSettings } from './settingsDialog.js';
import { signIn } from './signIn.js';

interface Charge {
  id: string;
  kind: 'credit' | 'debit' | 'refund';
  amount: string;
  balanceAfter: string;
  description: string;
}

/** Money in ten-thousandths of a dollar, by string operations: no float decides the expected balance. */
const units = (money: string): bigint => {
  const [whole = '0', fraction = ''] = money.split('.');
  return BigInt(whole) * 10_000n + BigInt(fraction.padEnd(4, '0'));
};
const money = (value: bigint): string => `${value / 10_000n}.${(value % 10_000n).toString().padStart(4, '0')}`;

async function balanceOf(api: BrowserApi): Promise<string> {
  const answer = await api.page.request.get(`/v1/accounts/${api.accountId}`, { headers: api.headers });
  expect(answer.status(), await answer.text()).toBe(200);
  return ((await answer.json()) as { data: { balance: string } }).data.balance;
}

async function topUpsOf(api: BrowserApi): Promise<Charge[]> {
  const answer = await api.page.request.get(`/v1/accounts/${api.accountId}/charges?limit=100`, { headers: api.headers });
  expect(answer.status(), await answer.text()).toBe(200);
  return ((await answer.json()) as { data: Charge[] }).data.filter((charge) => charge.description === 'Top-up (sandbox payment)');
}

/** Opens 'Top Up Balance' from the Plan tab, chooses the amount and confirms with a double click. */
async function topUp(page: Page, settings: Locator, amount: string): Promise<void> {
  await settings.getByRole('button', { name: 'Topup' }).click();
  const dialog = page.getByRole('dialog', { name: 'Top Up Balance' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('Sandbox payment: this server has no payment provider, so no card is charged.')).toBeVisible();
  await dialog.getByRole('combobox', { name: 'Amount (USD)' }).click();
  await page.getByRole('option', { name: `$${amount}`, exact: true }).click();
  await expect(dialog.getByRole('combobox', { name: 'Amount (USD)' })).toHaveText(`$${amount}`);
  // A double click is one payment: the dialog sends one Idempotency-Key per opening.
  await dialog.getByRole('button', { name: 'Confirm' }).dblclick();
  await expect(dialog).toBeHidden();
}

test('an administrator of a paid plan tops up the balance through the sandbox payment, once per Confirm', async ({ page }) => {
  // Topup is for paid plans (a trial hides it): the operator put this account on Starter.
  await signIn(page, '/', e2eTwoLines, e2eTopUpAccountName);
  const accountId = await page.evaluate(() => window.localStorage.getItem('parley.account') ?? '');
  const api: BrowserApi = { page, headers: await bearerOf(page), accountId };
  const before = await balanceOf(api);
  // Top-ups made before this test (by a first attempt, when it is retried) are not its own: count only this test's.
  const earlier = new Set((await topUpsOf(api)).map((charge) => charge.id));
  const newTopUps = async (): Promise<Charge[]> => (await topUpsOf(api)).filter((charge) => !earlier.has(charge.id));

  const settings = await openSettings(page);
  const balance = settings.getByTestId('plan-balance');
  await expect(balance).toContainText(`$${before}`);

  const afterFirst = money(units(before) + units('20'));
  const sent = page.waitForRequest((request) => request.method() === 'POST' && request.url().endsWith(`/v1/accounts/${api.accountId}/topup`));
  await topUp(page, settings, '20');
  const key = (await sent).headers()['idempotency-key'] ?? '';
  expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  await expect(page.getByText(`Balance topped up to $${afterFirst}`)).toBeVisible();
  await expect(balance).toContainText(`$${afterFirst}`);
  expect(await balanceOf(api)).toBe(afterFirst);
  expect(await newTopUps()).toEqual([
    expect.objectContaining({ kind: 'credit', amount: '20.0000', balanceAfter: afterFirst }),
  ]);
  // A retry of that payment (its answer lost, say) answers the first result and credits nothing.
  const retry = await page.request.post(`/v1/accounts/${api.accountId}/topup`, {
    headers: { ...api.headers, 'idempotency-key': key },
    data: { amount: '20' },
  });
  expect(retry.status(), await retry.text()).toBe(200);
  expect(((await retry.json()) as { data: { duplicate: boolean } }).data.duplicate).toBe(true);
  expect(await balanceOf(api)).toBe(afterFirst);

  // Another opening is another payment.
  const afterSecond = money(units(afterFirst) + units('20'));
  await topUp(page, settings, '20');
  await expect(balance).toContainText(`$${afterSecond}`);
  expect(await balanceOf(api)).toBe(afterSecond);
  expect((await newTopUps()).map((charge) => charge.balanceAfter)).toEqual([afterSecond, afterFirst]);

  // Cancel pays nothing.
  await settings.getByRole('button', { name: 'Topup' }).click();
  const dialog = page.getByRole('dialog', { name: 'Top Up Balance' });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect(await balanceOf(api)).toBe(afterSecond);
});

test('a trial account shows no Topup button; the sandbox still takes a top-up through the API', async ({ page }) => {
  await signIn(page, '/');
  const api = await freshAccount(page, 'Trial Topup Clinic');
  await page.goto('/');
  await expect(page.getByRole('main').getByRole('heading').first()).toBeVisible();
  const before = await balanceOf(api);

  const settings = await openSettings(page);
  await expect(settings.getByTestId('plan-plan')).toHaveText('Trial (trial)');
  await expect(settings.getByTestId('plan-balance')).toContainText(`$${before}`);
  await expect(settings.getByRole('button', { name: 'Topup' })).toHaveCount(0);

  const credit = await page.request.post(`/v1/accounts/${api.accountId}/topup`, { headers: api.headers, data: { amount: '10' } });
  expect(credit.status(), await credit.text()).toBe(200);
  expect(await balanceOf(api)).toBe(money(units(before) + units('10')));
});
