import { PLAN_CHANGE_PROCESSING_MESSAGE, SEGMENT_UNDERSTANDING_MESSAGE } from '@parley/shared';
import { signInToFreshAccount } from './browserApi.js';
import { expect, test } from './fixtures.js';
import { SANDBOX_VISA } from './sandboxCard.js';
import { openSettings } from './settingsDialog.js';

test('a trial administrator upgrades: compares plans, confirms segments, adds a sandbox card, and sees the plan and its invoice', async ({
  page,
}) => {
  // About 40 s on an idle machine; the room is for a loaded one.
  test.setTimeout(120_000);
  const api = await signInToFreshAccount(page, 'Upgrade Clinic');
  await page.goto('/');
  const topBar = page.getByRole('banner');
  await topBar.getByRole('button', { name: /^Upgrade \(\d+ days? left\)$/ }).click();

  // The plans compared, cheapest first, no trial or free plan; Contact Us on the largest.
  const changePlan = page.getByRole('dialog', { name: 'Change Plan' });
  const plans = changePlan.getByRole('grid', { name: 'Plans' });
  await expect(plans.getByRole('row').filter({ hasText: '/ month' })).toHaveText([/^Starter\$29\.0000 \/ month2,416 SMS or 966 MMS \(US\)/, /^Growth\$99\.0000/, /^Scale\$299\.0000/]);
  await expect(plans.getByRole('row', { name: /Starter/ })).toContainText('Standard');
  await expect(plans.getByRole('row', { name: /Growth/ })).toContainText('Premium');
  await expect(plans.getByRole('row', { name: /Scale/ }).getByRole('link', { name: 'Contact Us for more' })).toBeVisible();
  await expect(plans).not.toContainText('Trial');
  await plans.getByRole('button', { name: 'Choose Starter' }).click();

  // The segment-understanding confirmation comes first; no card on file, so the payment details follow.
  const confirm = changePlan.getByRole('region', { name: 'Confirm plan' });
  await confirm.getByRole('button', { name: 'Continue' }).click();
  await expect(confirm.getByText(SEGMENT_UNDERSTANDING_MESSAGE)).toBeVisible();
  await confirm.getByLabel('I understand that each message is billed per segment').check();
  await confirm.getByRole('button', { name: 'Continue' }).click();

  const payment = page.getByRole('dialog', { name: 'Payment Details' });
  await payment.getByRole('button', { name: 'Save Card' }).click();
  const invalid = payment.getByRole('alert').filter({ hasText: 'Invalid Payment Details' });
  for (const text of [
    'Please enter the registered card holders name',
    'Please enter the first line of address of the registered card holder',
    'Please enter the city of the registered card holder',
    'Please enter the postal code of the registered card holder',
    'Please enter the country of the registered card holder',
  ]) {
    await expect(invalid.getByText(text, { exact: true })).toBeVisible();
  }
  const expYear = new Date().getUTCFullYear() + 3;
  await payment.getByLabel('Card Holder Name').fill('Ada Lovelace');
  await payment.getByLabel('Address Line 1').fill('1 Main St');
  await payment.getByLabel('City').fill('Springfield');
  await payment.getByLabel('Postal Code').fill('62701');
  await payment.getByLabel('Country').fill('United States');
  await payment.getByLabel('Card Number').fill(SANDBOX_VISA);
  await payment.getByLabel('Expiry (MM/YY)').fill(`12/${String(expYear).slice(-2)}`);
  await payment.getByLabel('CVC').fill('123');
  await payment.getByRole('button', { name: 'Save Card' }).click();
  await expect(payment).toBeHidden({ timeout: 20_000 });

  // The change is asked once the card is on file; the new plan shows when the sandbox confirms it.
  await expect(changePlan.getByText(PLAN_CHANGE_PROCESSING_MESSAGE).or(changePlan.getByText('Your account is now on the Starter plan.'))).toBeVisible();
  await expect(changePlan.getByText('Your account is now on the Starter plan.')).toBeVisible({ timeout: 20_000 });
  await expect(changePlan.getByTestId('changed-plan')).toContainText(/^Starter: \$29\.0000 USD plus local taxes, next bill on /);
  await changePlan.getByRole('button', { name: 'Done' }).click();
  await expect(changePlan).toBeHidden();
  await expect(topBar.getByRole('button', { name: /^Upgrade/ })).toHaveCount(0);

  const settings = await openSettings(page);
  await expect(settings.getByTestId('plan-plan')).toHaveText('Starter');
  await expect(settings.getByTestId('plan-monthly-charge')).toHaveText('$29.0000 USD plus local taxes');
  await expect(settings.getByTestId('plan-next-bill-date')).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
  await expect(settings.getByTestId('plan-payment-card')).toHaveText(`Visa ending 4242, expires 12/${String(expYear)}`);

  // The plan's invoice, and its PDF from the server.
  await settings.getByRole('tab', { name: 'Invoices' }).click();
  const invoice = settings.getByRole('row').filter({ hasText: 'Starter plan, monthly' });
  await expect(invoice).toContainText('$29.0000');
  await expect(invoice).toContainText('Paid');
  const pdf = page.waitForResponse((response) => response.url().includes(`/v1/accounts/${api.accountId}/invoices/`) && response.url().endsWith('/pdf'));
  const tab = page.context().waitForEvent('page');
  await invoice.getByRole('button', { name: /^PDF of the invoice/ }).click();
  const answer = await pdf;
  expect(answer.status()).toBe(200);
  expect(answer.headers()['content-type']).toBe('application/pdf');
  await (await tab).close();
});
