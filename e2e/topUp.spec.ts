import type { Locator, Page, Request, Response } from '@playwright/test';
import { TOPUP_PROCESSING_MESSAGE } from '@parley/shared';
import { bearerOf, type BrowserApi, signInToFreshAccount } from './browserApi.js';
import { expect, test } from './fixtures.js';
import { e2eTopUpAccountName, e2eTwoLines } from './globalSetup.js';
import {
  balanceOf,
  money,
  putSandboxCardOnFile,
  SANDBOX_AUTHENTICATION_CARD,
  TOPUP_CREDIT_DESCRIPTION,
  topUpWithSandboxCard,
  units,
} from './sandboxCard.js';
import { openSettings } from './settingsDialog.js';
import { signIn } from './signIn.js';

interface Charge {
  id: string;
  kind: 'credit' | 'debit' | 'refund';
  amount: string;
  balanceAfter: string;
  description: string;
}

interface TopupAnswer {
  payment: { id: string; status: string; amount: string };
  balance: string;
  duplicate: boolean;
}

async function topUpsOf(api: BrowserApi): Promise<Charge[]> {
  const answer = await api.page.request.get(`/v1/accounts/${api.accountId}/charges?limit=100`, { headers: api.headers });
  expect(answer.status(), await answer.text()).toBe(200);
  return ((await answer.json()) as { data: Charge[] }).data.filter((charge) => charge.description === TOPUP_CREDIT_DESCRIPTION);
}

/**
 * Opens 'Top Up Balance' from the Plan tab, chooses the amount and confirms with a double click; the dialog
 * closes with the notice that the payment is processing. Answers what the server said to the first POST.
 */
async function topUp(page: Page, settings: Locator, amount: string): Promise<{ key: string; answer: TopupAnswer }> {
  await settings.getByRole('button', { name: 'Topup' }).click();
  const dialog = page.getByRole('dialog', { name: 'Top Up Balance' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('Paid with the card on file. The balance updates once the payment provider confirms the payment')).toBeVisible();
  await dialog.getByRole('combobox', { name: 'Amount (USD)' }).click();
  await page.getByRole('option', { name: `$${amount}`, exact: true }).click();
  await expect(dialog.getByRole('combobox', { name: 'Amount (USD)' })).toHaveText(`$${amount}`);
  const sent: Request[] = [];
  const collect = (request: Request): void => {
    if (request.method() === 'POST' && request.url().endsWith('/topup')) sent.push(request);
  };
  page.on('request', collect);
  const answered = page.waitForResponse((response) => response.request().method() === 'POST' && response.url().endsWith('/topup'));
  // A double click is one payment: the dialog sends one Idempotency-Key per opening.
  await dialog.getByRole('button', { name: 'Confirm' }).dblclick();
  const response = await answered;
  await expect(dialog).toBeHidden();
  await expect(page.getByText(TOPUP_PROCESSING_MESSAGE)).toBeVisible();
  page.off('request', collect);
  expect(new Set(sent.map((request) => request.headers()['idempotency-key'])).size, 'one Idempotency-Key per opening').toBe(1);
  expect(response.status(), await response.text()).toBe(200);
  const key = response.request().headers()['idempotency-key'] ?? '';
  return { key, answer: ((await response.json()) as { data: TopupAnswer }).data };
}

test('an administrator of a paid plan tops up the balance with the sandbox card, once per Confirm', async ({ page }) => {
  // Topup is for paid plans (a trial hides it): the operator put this account on Starter.
  await signIn(page, '/', e2eTwoLines, e2eTopUpAccountName);
  const accountId = await page.evaluate(() => window.localStorage.getItem('parley.account') ?? '');
  const api: BrowserApi = { page, headers: await bearerOf(page), accountId };
  // The web has no card form yet: the card goes on file through the sandbox's card form API.
  await putSandboxCardOnFile(api);
  const before = await balanceOf(api);
  // Top-ups made before this test (by a first attempt, when it is retried) are not its own: count only this test's.
  const earlier = new Set((await topUpsOf(api)).map((charge) => charge.id));
  const newTopUps = async (): Promise<Charge[]> => (await topUpsOf(api)).filter((charge) => !earlier.has(charge.id));

  const settings = await openSettings(page);
  const balance = settings.getByTestId('plan-balance');
  await expect(balance).toContainText(`$${before}`);

  const afterFirst = money(units(before) + units('20'));
  const first = await topUp(page, settings, '20');
  expect(first.key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  expect(first.answer.duplicate).toBe(false);
  expect(first.answer.payment.amount).toBe('20.0000');
  // Processing, unless the sandbox's event was applied before the answer was written.
  expect(['processing', 'succeeded']).toContain(first.answer.payment.status);
  // The Plan tab follows the balance until the sandbox's event moved it.
  await expect(balance).toContainText(`$${afterFirst}`);
  expect(await balanceOf(api)).toBe(afterFirst);
  await expect.poll(newTopUps).toEqual([expect.objectContaining({ kind: 'credit', amount: '20.0000', balanceAfter: afterFirst })]);
  // A retry of that payment (its answer lost, say) answers the same payment, settled now, and credits nothing.
  const retry = await page.request.post(`/v1/accounts/${api.accountId}/topup`, {
    headers: { ...api.headers, 'idempotency-key': first.key },
    data: { amount: '20' },
  });
  expect(retry.status(), await retry.text()).toBe(200);
  const retried = ((await retry.json()) as { data: TopupAnswer }).data;
  expect(retried).toMatchObject({ duplicate: true, balance: afterFirst, payment: { id: first.answer.payment.id, status: 'succeeded', amount: '20.0000' } });
  // The same key for another amount is refused.
  const reused = await page.request.post(`/v1/accounts/${api.accountId}/topup`, {
    headers: { ...api.headers, 'idempotency-key': first.key },
    data: { amount: '30' },
  });
  expect(reused.status(), await reused.text()).toBe(409);
  expect(await balanceOf(api)).toBe(afterFirst);
  expect(await newTopUps()).toHaveLength(1);

  // Another opening is another payment.
  const afterSecond = money(units(afterFirst) + units('20'));
  const second = await topUp(page, settings, '20');
  expect(second.key).not.toBe(first.key);
  expect(second.answer.payment.id).not.toBe(first.answer.payment.id);
  await expect(balance).toContainText(`$${afterSecond}`);
  expect(await balanceOf(api)).toBe(afterSecond);
  await expect.poll(async () => (await newTopUps()).map((charge) => charge.balanceAfter)).toEqual([afterSecond, afterFirst]);

  // Cancel pays nothing.
  await settings.getByRole('button', { name: 'Topup' }).click();
  const dialog = page.getByRole('dialog', { name: 'Top Up Balance' });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect(await balanceOf(api)).toBe(afterSecond);
  expect(await newTopUps()).toHaveLength(2);
});

test('a trial account shows no Topup button; the sandbox still takes a top-up with a card through the API', async ({ page }) => {
  const api = await signInToFreshAccount(page, 'Trial Topup Clinic');
  await page.goto('/');
  await expect(page.getByRole('main').getByRole('heading').first()).toBeVisible();
  const before = await balanceOf(api);

  const settings = await openSettings(page);
  await expect(settings.getByTestId('plan-plan')).toHaveText('Trial (trial)');
  await expect(settings.getByTestId('plan-balance')).toContainText(`$${before}`);
  await expect(settings.getByRole('button', { name: 'Topup' })).toHaveCount(0);
  // Auto top-up is offered once a card is on file: none here yet.
  await expect(settings.getByTestId('plan-payment-card')).toHaveText('No Payment Setup');
  await expect(settings.getByTestId('plan-auto-top-up')).toHaveCount(0);

  // No card on file: the top-up is refused and nothing is credited.
  const refused = await page.request.post(`/v1/accounts/${api.accountId}/topup`, { headers: api.headers, data: { amount: '10' } });
  expect(refused.status(), await refused.text()).toBe(402);
  expect(await balanceOf(api)).toBe(before);

  await putSandboxCardOnFile(api);
  expect(await topUpWithSandboxCard(api, '10')).toBe(money(units(before) + units('10')));
});

interface AutoTopupAnswer {
  autotopup: { below: string; amount: string } | null;
  stopped: boolean;
}

async function autoTopupOf(api: BrowserApi): Promise<AutoTopupAnswer> {
  const answer = await api.page.request.get(`/v1/accounts/${api.accountId}/autotopup`, { headers: api.headers });
  expect(answer.status(), await answer.text()).toBe(200);
  return ((await answer.json()) as { data: AutoTopupAnswer }).data;
}

async function openAutoTopup(page: Page, settings: Locator): Promise<Locator> {
  await settings.getByRole('button', { name: 'Edit Auto Top Up' }).click();
  const dialog = page.getByRole('dialog', { name: 'Auto Top Up' });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** Sets the fields of the open 'Auto Top Up' and saves; answers the request Save sent. */
async function saveAutoTopup(page: Page, dialog: Locator, fields: Record<string, string>): Promise<Response> {
  for (const [label, option] of Object.entries(fields)) {
    await dialog.getByRole('combobox', { name: label }).click();
    await page.getByRole('option', { name: option, exact: true }).click();
    await expect(dialog.getByRole('combobox', { name: label })).toHaveText(option);
  }
  const answered = page.waitForResponse((response) => response.url().endsWith('/autotopup') && response.request().method() !== 'GET');
  await dialog.getByRole('button', { name: 'Save' }).click();
  const response = await answered;
  expect(response.status(), await response.text()).toBe(200);
  await expect(dialog).toBeHidden();
  return response;
}

test('an administrator turns auto top-up on, changes it and turns it off in its dialog', async ({ page }) => {
  await signIn(page, '/', e2eTwoLines, e2eTopUpAccountName);
  const accountId = await page.evaluate(() => window.localStorage.getItem('parley.account') ?? '');
  const api: BrowserApi = { page, headers: await bearerOf(page), accountId };
  await putSandboxCardOnFile(api);
  // Off to begin with, whatever a first attempt of this test left.
  expect((await page.request.delete(`/v1/accounts/${accountId}/autotopup`, { headers: api.headers })).status()).toBe(200);

  const settings = await openSettings(page);
  const summary = settings.getByTestId('plan-auto-top-up');
  await expect(summary).toHaveText('Off');

  // Off, the 'below' and 'Top up by' selects wait, showing the defaults.
  const dialog = await openAutoTopup(page, settings);
  await expect(dialog.getByRole('combobox', { name: 'Enabled' })).toHaveText('No');
  await expect(dialog.getByRole('combobox', { name: 'Top up by (USD)' })).toHaveText('$50');
  await expect(dialog.getByRole('combobox', { name: 'Top up by (USD)' })).toHaveAttribute('aria-disabled', 'true');
  const on = await saveAutoTopup(page, dialog, { Enabled: 'Yes', 'When balance is below (USD)': '$20', 'Top up by (USD)': '$100' });
  expect(on.request().method()).toBe('POST');
  expect(on.request().postDataJSON()).toEqual({ below: '20', amount: '100' });
  await expect(page.getByText('Auto top-up on: top up by $100 when below $20')).toBeVisible();
  await expect(summary).toHaveText('Top up by $100 when below $20');
  expect(await autoTopupOf(api)).toEqual({ autotopup: { below: '20.0000', amount: '100.0000' }, stopped: false });

  const changed = await saveAutoTopup(page, await openAutoTopup(page, settings), { 'Top up by (USD)': '$1,000' });
  expect(changed.request().method()).toBe('PUT');
  expect(changed.request().postDataJSON()).toEqual({ below: '20', amount: '1000' });
  await expect(summary).toHaveText('Top up by $1,000 when below $20');

  const off = await saveAutoTopup(page, await openAutoTopup(page, settings), { Enabled: 'No' });
  expect(off.request().method()).toBe('DELETE');
  expect(off.request().postData()).toBeNull();
  // Its notice waits behind the two before it (one at a time, 5 s each): the summary and the API say it is off.
  await expect(summary).toHaveText('Off');
  expect(await autoTopupOf(api)).toEqual({ autotopup: null, stopped: false });
});

test("a top-up the card's bank asks to authenticate shows the sandbox's step: refused pays nothing, completed pays once", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, '/', e2eTwoLines, e2eTopUpAccountName);
  const accountId = await page.evaluate(() => window.localStorage.getItem('parley.account') ?? '');
  const api: BrowserApi = { page, headers: await bearerOf(page), accountId };
  await putSandboxCardOnFile(api, SANDBOX_AUTHENTICATION_CARD);
  try {
    const before = await balanceOf(api);
    const earlier = new Set((await topUpsOf(api)).map((charge) => charge.id));
    const settings = await openSettings(page);
    await settings.getByRole('button', { name: 'Topup' }).click();
    const dialog = page.getByRole('dialog', { name: 'Top Up Balance' });
    await dialog.getByRole('combobox', { name: 'Amount (USD)' }).click();
    await page.getByRole('option', { name: '$10', exact: true }).click();

    // Refused: nothing is paid, and the dialog stays open for another try.
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    const step = dialog.getByRole('region', { name: 'Card authentication' });
    await expect(step).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Confirm' })).toBeDisabled();
    await step.getByRole('button', { name: 'Fail authentication' }).click();
    await expect(dialog.getByText('The payment was not authenticated, so the balance stays as it was.')).toBeVisible();
    await expect(step).toBeHidden();

    // Completed: the payment is processing, and the balance moves once.
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect(step).toBeVisible();
    await step.getByRole('button', { name: 'Complete authentication' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(TOPUP_PROCESSING_MESSAGE)).toBeVisible();
    const after = money(units(before) + units('10'));
    await expect.poll(() => balanceOf(api)).toBe(after);
    await expect(settings.getByTestId('plan-balance')).toContainText(`$${after}`);
    expect((await topUpsOf(api)).filter((charge) => !earlier.has(charge.id))).toHaveLength(1);
  } finally {
    // The other tests of this account expect the Visa.
    await putSandboxCardOnFile(api);
  }
});
