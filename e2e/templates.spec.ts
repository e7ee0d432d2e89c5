import { signInToFreshAccount } from './browserApi.js';
import { expect, test } from './fixtures.js';

/*
 * Creating a template answers it in a list of one, and removing a template or a campaign answers 200
 * {success: true}, as the hosted product's API does (docs/decisions.md): the pages still add and remove.
 */

test('templates and campaigns: a template is added and removed, a campaign removed, from their pages', async ({ page }) => {
  const api = await signInToFreshAccount(page, 'Template Studio');

  await page.goto('/templates/sms');
  await page.getByRole('main').getByRole('button', { name: 'Add Template' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Template' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Recall reminder');
  await dialog.getByRole('textbox', { name: 'Message' }).fill('Hi {{{firstName}}}, time for your check-up.');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Template added')).toBeVisible();
  const templates = page.getByRole('grid', { name: 'SMS Templates' });
  await expect(templates.getByRole('row').filter({ hasText: 'Recall reminder' })).toBeVisible();

  await page.getByRole('button', { name: 'Remove Recall reminder' }).click();
  await page.getByRole('dialog', { name: 'Remove Template' }).getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('Template removed')).toBeVisible();
  await expect(templates.getByRole('row').filter({ hasText: 'Recall reminder' })).toHaveCount(0);

  // A campaign made through the API (from the account's number), removed from its row.
  const numbers = await page.request.get(`/v1/accounts/${api.accountId}/phonenumbers`, { headers: api.headers });
  const [number] = ((await numbers.json()) as { data: { id: string }[] }).data;
  const created = await page.request.post(`/v1/accounts/${api.accountId}/campaigns`, {
    headers: api.headers,
    data: { name: 'Spring recall', messagingType: 'marketing', phoneNumberFilter: { group: number?.id }, trigger: { code: 'M' }, template: 'Hi' },
  });
  expect(created.status(), await created.text()).toBe(201);
  await page.goto('/campaigns');
  await page.getByRole('button', { name: 'Remove Spring recall' }).click();
  await page.getByRole('dialog', { name: 'Remove Campaign' }).getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('Campaign removed')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Remove Spring recall' })).toHaveCount(0);
});
