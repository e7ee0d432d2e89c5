import fs from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { bearerOf } from './browserApi.js';
import { expect, test } from './fixtures.js';
import { e2eAccountName } from './globalSetup.js';
import { signIn } from './signIn.js';

interface Api {
  request: APIRequestContext;
  headers: Record<string, string>;
  accountId: string;
}

/** The signed-in browser's access token (the app keeps its user in localStorage) and the e2e account's id. */
async function apiOf(page: Page): Promise<Api> {
  const headers = await bearerOf(page);
  const accounts = await page.request.get('/v1/accounts?limit=100', { headers });
  const { data } = (await accounts.json()) as { data: { id: string; name: string }[] };
  const account = data.find((a) => a.name === e2eAccountName);
  expect(account, e2eAccountName).toBeDefined();
  return { request: page.request, headers, accountId: account?.id ?? '' };
}

async function post<T>(api: Api, path: string, body: object): Promise<T> {
  const answer = await api.request.post(`/v1/accounts/${api.accountId}${path}`, { headers: api.headers, data: body });
  expect(answer.status(), await answer.text()).toBeLessThan(300);
  return ((await answer.json()) as { data: T }).data;
}

test('lists: create one from the side menu, open it, add a contact and change its consent; GDPR download and delete', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, '/');
  const api = await apiOf(page);
  // The contact and the account's first list come from the API, as the contacts page and an import would make them.
  const [contact] = await post<{ id: string }[]>(api, '/contacts', {
    firstName: 'Priya',
    lastName: 'Shah',
    mobile: { number: '(617) 555-0142', country: 'US' },
    email: 'priya.shah@example.test',
    tags: ['recall'],
    attributes: { dentist: 'Dr Okafor' },
  });
  // A create answers the contact in a list of one.
  if (!contact) throw new Error('no contact in the answer');
  await post(api, '/lists', { name: 'Existing Patients' });
  await page.reload();

  // The side menu shows Lists once the account has one; New List opens the dialog.
  const menu = page.getByRole('navigation', { name: 'Main menu' }).last();
  await menu.getByRole('button', { name: 'Lists' }).click();
  await expect(menu.getByRole('link', { name: 'Existing Patients' })).toBeVisible();
  await menu.getByRole('button', { name: 'New List' }).click();
  const dialog = page.getByRole('dialog', { name: 'New List' });
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog.getByText('Required')).toBeVisible();
  await dialog.getByLabel('Name').fill('existing patients');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog.getByText('Failed to save list')).toBeVisible();
  await expect(dialog.getByText('A list with this name already exists')).toBeVisible();
  await dialog.getByLabel('Name').fill('Spring Recall');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toBeHidden();

  // The new list opens, and the menu lists it without a reload (the cached totalCount went up by one).
  await expect(page).toHaveURL(/\/lists\/[0-9a-f-]{36}$/);
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { name: 'Spring Recall' })).toBeVisible();
  await expect(main.getByTestId('member-count')).toHaveText('0 contacts');
  await expect(main.getByText('No contacts on this list yet')).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Spring Recall' })).toBeVisible();

  // Add the contact through the contacts search dialog, opted in.
  await main.getByRole('button', { name: 'Add Contacts' }).click();
  const add = page.getByRole('dialog', { name: 'Add Contacts to Spring Recall' });
  await add.getByLabel('Search contacts').fill('Priya');
  await add.getByRole('checkbox', { name: 'Priya Shah' }).check();
  await add.getByLabel(/They have opted in to this list/).check();
  await add.getByRole('button', { name: 'Add' }).click();
  await expect(add).toBeHidden();
  await expect(main.getByTestId('member-count')).toHaveText('1 contact');
  const row = main.getByRole('row').filter({ hasText: 'Priya Shah' });
  await expect(row).toContainText('(617) 555-0142');
  await expect(row).toContainText('Opted In');
  await expect(row.getByRole('gridcell').nth(4)).not.toBeEmpty();

  // Opting out records the date; the status follows.
  await row.getByRole('button', { name: 'Opt out Priya Shah' }).click();
  await expect(row).toContainText('Opted Out');
  await expect(row.getByRole('gridcell').nth(5)).not.toBeEmpty();

  // Privacy: find the contact by number, download everything held, then delete permanently.
  await menu.getByRole('button', { name: 'Admin' }).click();
  await menu.getByRole('link', { name: 'GDPR' }).click();
  await expect(main.getByRole('heading', { name: 'GDPR' })).toBeVisible();
  await main.getByLabel('Mobile Number').fill('617.555.0142');
  await main.getByRole('button', { name: 'Search' }).click();
  const found = main.getByRole('region', { name: 'Contact found' });
  await expect(found.getByRole('heading', { name: 'Priya Shah' })).toBeVisible();
  await expect(found).toContainText('1 list membership');

  const downloading = page.waitForEvent('download');
  await found.getByRole('button', { name: 'Download (CSV)' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`contact-${contact.id}.csv`);
  const csv = fs.readFileSync(await download.path(), 'utf8');
  expect(csv.split('\r\n')[0]).toBe('record,recordId,field,value');
  expect(csv).toContain(`contact,${contact.id},firstName,Priya`);
  expect(csv).toContain(`contact,${contact.id},mobile,'+16175550142`);
  expect(csv).toContain(`attribute,${contact.id},dentist,Dr Okafor`);
  expect(csv).toContain(`tag,${contact.id},tag,recall`);
  expect(csv).toMatch(/listMembership,[0-9a-f-]{36},list,Spring Recall/);
  expect(csv).toMatch(/listMembership,[0-9a-f-]{36},status,optedOut/);

  await found.getByRole('button', { name: 'Delete Permanently' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete Permanently' });
  await expect(confirm).toContainText('This cannot be undone.');
  await confirm.getByRole('button', { name: 'Delete Permanently' }).click();
  await expect(main.getByRole('status')).toContainText('Removed 1 contact, 0 conversations and 0 messages.');
  await main.getByRole('button', { name: 'Search' }).click();
  await expect(main.getByText('No contact holds this number.')).toBeVisible();

  // The list keeps going without the removed contact.
  await menu.getByRole('link', { name: 'Spring Recall' }).click();
  await expect(main.getByTestId('member-count')).toHaveText('0 contacts');
});
