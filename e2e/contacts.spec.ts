import fs from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { type BrowserApi, createdId, signInToFreshAccount } from './browserApi.js';
import { expect, test } from './fixtures.js';
import { signIn } from './signIn.js';

async function addByApi(api: BrowserApi, body: object): Promise<{ id: string }> {
  const answer = await api.page.request.post(`/v1/accounts/${api.accountId}/contacts`, { headers: api.headers, data: body });
  expect(answer.status(), await answer.text()).toBe(201);
  return { id: await createdId(answer) };
}

const grid = (page: Page): Locator => page.getByRole('grid', { name: 'Contacts' });
const row = (page: Page, text: string): Locator => grid(page).getByRole('row').filter({ hasText: text });

test('contacts: add, edit attributes, filter by tag, download, invalid data, block, remove', async ({ page }) => {
  test.setTimeout(120_000);
  const api = await signInToFreshAccount(page, 'Contacts Clinic', '/contacts');
  await page.goto('/contacts');
  await expect(page.getByRole('heading', { name: 'Contacts', level: 1 })).toBeVisible();
  await expect(page.getByText('No Contacts Exist')).toBeVisible();

  // Add a contact through the dialog: Core, then a new attribute on the Attributes tab.
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Contact' });
  await dialog.getByLabel('First Name').fill('Ada');
  await dialog.getByLabel('Last Name').fill('Lovelace');
  await dialog.getByRole('textbox', { name: 'Mobile' }).fill('(415) 555-0101');
  await dialog.getByLabel('Email').fill('ada@example.test');
  const tags = dialog.getByRole('combobox', { name: 'Tags' });
  await tags.fill('vip');
  await tags.press('Enter');
  await tags.fill('math,');
  await dialog.getByRole('tab', { name: 'Attributes' }).click();
  await dialog.getByLabel('New Attribute Name').fill('city');
  await dialog.getByLabel('Value').fill('London');
  await dialog.getByRole('button', { name: 'Add Attribute' }).click();
  await expect(dialog.getByRole('textbox', { name: 'city' })).toHaveValue('London');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const ada = row(page, 'Ada');
  // The number as the account's country writes it; the download below keeps E.164.
  await expect(ada).toContainText('(415) 555-0101');
  await expect(ada).toContainText('vip');
  await expect(ada).toContainText('math');

  // Two more from the API: one with another tag, one whose number is not valid.
  await addByApi(api, { firstName: 'Bob', lastName: 'Babbage', mobile: { number: '(415) 555-0102' }, tags: ['math'] });
  await addByApi(api, { firstName: 'Cy', lastName: 'Wrong', mobile: { number: '12345' } });
  await page.reload();
  await expect(grid(page).getByRole('row')).toHaveCount(4);

  // Edit the attribute.
  await ada.getByRole('gridcell', { name: 'Ada', exact: true }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Contact' });
  await edit.getByRole('tab', { name: 'Attributes' }).click();
  await edit.getByRole('textbox', { name: 'city' }).fill('Paris');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await ada.getByRole('gridcell', { name: 'Ada', exact: true }).click();
  await page.getByRole('dialog', { name: 'Edit Contact' }).getByRole('tab', { name: 'Attributes' }).click();
  await expect(page.getByRole('dialog', { name: 'Edit Contact' }).getByRole('textbox', { name: 'city' })).toHaveValue('Paris');
  await page.getByRole('dialog', { name: 'Edit Contact' }).getByRole('button', { name: 'Cancel' }).click();

  // The invalid contact: the reason in a tooltip, the full message on a click.
  const invalid = row(page, 'Cy').getByRole('button', { name: 'Invalid Contact' });
  await invalid.hover();
  await expect(page.getByRole('tooltip')).toHaveText('Country or Number is not valid');
  await invalid.click();
  const alert = page.getByRole('dialog', { name: 'Invalid Contact' });
  await expect(alert).toContainText('This contact has invalid data. Country or Number is not valid');
  await alert.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByRole('dialog', { name: 'Edit Contact' })).toBeHidden();

  // Filter by tag in the column's filter.
  await grid(page).getByRole('columnheader', { name: 'Tags' }).hover();
  await grid(page).getByRole('columnheader', { name: 'Tags' }).getByRole('button', { name: /menu/i }).click();
  await page.getByRole('menuitem', { name: 'Filter' }).click();
  await page.getByPlaceholder('Filter value').fill('vip');
  await expect(grid(page).getByRole('row')).toHaveCount(2);
  await expect(row(page, 'Ada')).toBeVisible();
  await page.keyboard.press('Escape');

  // The download holds what the table shows.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^contacts-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = fs.readFileSync(await download.path(), 'utf8');
  const lines = csv.trimEnd().split('\r\n');
  expect(lines[0]).toBe('firstName,lastName,mobile,country,email,tags,valid,error,blocked,optedOut,created,updated,city');
  expect(lines).toHaveLength(2);
  expect(lines[1]).toMatch(/^Ada,Lovelace,'\+14155550101,US,ada@example\.test,"vip,math",true,,,,.+,Paris$/);

  // Clear the filter: all three again.
  await grid(page).getByRole('columnheader', { name: 'Tags' }).hover();
  await grid(page).getByRole('columnheader', { name: 'Tags' }).getByRole('button', { name: /menu/i }).click();
  await page.getByRole('menuitem', { name: 'Filter' }).click();
  await page.getByPlaceholder('Filter value').fill('');
  await expect(grid(page).getByRole('row')).toHaveCount(4);
  await page.keyboard.press('Escape');

  // Block asks first and sets the date.
  await row(page, 'Bob').getByRole('gridcell', { name: 'Bob', exact: true }).click();
  const bob = page.getByRole('dialog', { name: 'Edit Contact' });
  await bob.getByRole('button', { name: 'Block' }).click();
  const confirmBlock = page.getByRole('dialog', { name: 'Block Contact' });
  await expect(confirmBlock).toContainText('Block Bob Babbage?');
  await confirmBlock.getByRole('button', { name: 'Block' }).click();
  await expect(bob).toBeHidden();
  await expect(row(page, 'Bob').getByRole('gridcell').filter({ hasText: /\d{4}|\d{1,2}\/\d{1,2}\// })).not.toHaveCount(0);
  await row(page, 'Bob').getByRole('gridcell', { name: 'Bob', exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'Edit Contact' })).toContainText('Blocked on');
  await expect(page.getByRole('dialog', { name: 'Edit Contact' }).getByRole('button', { name: 'Block' })).toHaveCount(0);
  await page.getByRole('dialog', { name: 'Edit Contact' }).getByRole('button', { name: 'Cancel' }).click();

  // Remove one from its dialog, asking first.
  await row(page, 'Cy').getByRole('gridcell', { name: 'Cy', exact: true }).click();
  await page.getByRole('dialog', { name: 'Edit Contact' }).getByRole('button', { name: 'Remove' }).click();
  const confirmRemove = page.getByRole('dialog', { name: 'Remove Contact' });
  await confirmRemove.getByRole('button', { name: 'Cancel' }).click();
  // Cancelled: nothing removed, the contact's dialog still open.
  await expect(confirmRemove).toBeHidden();
  await expect(page.getByRole('dialog', { name: 'Edit Contact' })).toBeVisible();
  await page.getByRole('dialog', { name: 'Edit Contact' }).getByRole('button', { name: 'Remove' }).click();
  await page.getByRole('dialog', { name: 'Remove Contact' }).getByRole('button', { name: 'Remove' }).click();
  await expect(row(page, 'Cy')).toHaveCount(0);

  // The selection goes on a new list, the account's first: the side menu then shows Lists.
  await row(page, 'Ada').getByRole('checkbox').check();
  await row(page, 'Bob').getByRole('checkbox').check();
  const selected = page.getByRole('group', { name: 'Selected contacts' });
  await expect(selected).toContainText('2 selected');
  await selected.getByRole('button', { name: 'Add to List' }).click();
  const addToList = page.getByRole('dialog', { name: 'Add to List' });
  await addToList.getByRole('combobox', { name: 'List' }).fill('Recall patients');
  await page.getByRole('option', { name: 'Create list “Recall patients”' }).click();
  await addToList.getByRole('button', { name: 'Add 2 contacts' }).click();
  // Notices queue: this one shows once the removal's notice has had its five seconds.
  await expect(page.getByText('Added 2 contacts to Recall patients')).toBeVisible({ timeout: 12_000 });
  const menu = page.getByRole('navigation', { name: 'Main menu' }).last();
  await menu.getByRole('button', { name: 'Lists' }).click();
  await expect(menu.getByRole('link', { name: 'Recall patients' })).toBeVisible();

  // Remove the other two at once: selected, confirmed, and the table refreshes a second later.
  await row(page, 'Ada').getByRole('checkbox').check();
  await row(page, 'Bob').getByRole('checkbox').check();
  await selected.getByRole('button', { name: 'Delete' }).click();
  const confirmMany = page.getByRole('dialog', { name: 'Remove Contacts' });
  await expect(confirmMany).toContainText('Remove 2 contacts?');
  await confirmMany.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('No Contacts Exist')).toBeVisible();
});

test('the Create Contact quick action opens an empty contact dialog', async ({ page }) => {
  await signIn(page, '/');
  await page.getByRole('region', { name: 'Quick actions' }).getByRole('link', { name: 'Create Contact' }).click();
  await expect(page).toHaveURL(/\/contacts$/);
  const dialog = page.getByRole('dialog', { name: 'Add Contact' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('First Name')).toHaveValue('');
});
