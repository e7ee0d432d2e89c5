import type { Locator, Page } from '@playwright/test';
import { type BrowserApi, createdId, signInToFreshAccount } from './browserApi.js';
import { expect, test } from './fixtures.js';
import { e2eColleague } from './globalSetup.js';
import { signIn } from './signIn.js';

/*
 * The contacts table at a common laptop width: each row's menu (Edit, Send Message, Call, Block, Remove) is on
 * screen without scrolling sideways, and each of its actions works with the confirmations the contact
 * dialog has; the toolbar keeps one line with rows selected; Read Only gets no menu at all.
 */
test.use({ viewport: { width: 1366, height: 768 } });

async function addContact(api: BrowserApi, body: object): Promise<{ id: string }> {
  const answer = await api.page.request.post(`/v1/accounts/${api.accountId}/contacts`, { headers: api.headers, data: body });
  expect(answer.status(), await answer.text()).toBe(201);
  return { id: await createdId(answer) };
}

const grid = (page: Page): Locator => page.getByRole('grid', { name: 'Contacts' });
const row = (page: Page, text: string): Locator => grid(page).getByRole('row').filter({ hasText: text });

/** The element lies wholly inside the grid's visible box and the window (nothing to scroll to reach it). */
async function expectWithinGrid(page: Page, element: Locator): Promise<void> {
  await expect(element).toBeInViewport({ ratio: 1 });
  const box = await element.boundingBox();
  const area = await grid(page).boundingBox();
  expect(box && area).toBeTruthy();
  if (box === null || area === null) return;
  expect(box.x).toBeGreaterThanOrEqual(area.x);
  expect(box.x + box.width).toBeLessThanOrEqual(area.x + area.width);
}

test('contacts at 1366 px: the row menu shows without scrolling and sends, blocks and removes', async ({ page }) => {
  test.setTimeout(120_000);
  const api = await signInToFreshAccount(page, 'Row Menu Clinic', '/contacts');
  const hours = await page.request.put(`/v1/accounts/${api.accountId}`, {
    headers: api.headers,
    // Quiet hours follow the recipient's clock; the run must not depend on the hour it runs at.
    data: { quietHours: { enabled: false, start: '08:00', end: '21:00' } },
  });
  expect(hours.status(), await hours.text()).toBe(200);
  await addContact(api, { firstName: 'Ada', lastName: 'Lovelace', mobile: { number: '+14155550101' }, email: 'ada@example.test', tags: ['vip'] });
  await addContact(api, { firstName: 'Bob', lastName: 'Babbage', mobile: { number: '+14155550102' }, email: 'bob@example.test', tags: ['math'] });
  await addContact(api, { firstName: 'Cy', lastName: 'Gone', mobile: { number: '+447400123456' }, email: 'cy.gone.with.a.long.address@example.test' });
  await page.goto('/contacts');
  await expect(grid(page).getByRole('row')).toHaveCount(4);

  // The grid does not scroll sideways, and every row's menu is inside it, on screen.
  const scroller = grid(page).locator('.MuiDataGrid-virtualScroller');
  expect(await scroller.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
  for (const name of ['Ada Lovelace', 'Bob Babbage', 'Cy Gone']) {
    await expectWithinGrid(page, grid(page).getByRole('button', { name: `Actions for ${name}` }));
  }
  // Numbers read as the account's country writes them: national for US numbers, international otherwise.
  await expect(row(page, 'Ada')).toContainText('(415) 555-0101');
  await expect(row(page, 'Cy')).toContainText('+44 7400 123456');

  // Send Message from the menu.
  await row(page, 'Ada').getByRole('button', { name: 'Actions for Ada Lovelace' }).click();
  const adaMenu = page.getByRole('menu');
  await expect(adaMenu.getByRole('menuitem')).toHaveText(['Edit', 'Send Message', 'Call', 'Block', 'Remove']);
  await adaMenu.getByRole('menuitem', { name: 'Send Message' }).click();
  const send = page.getByRole('dialog', { name: 'Send Message to Ada Lovelace' });
  await send.getByRole('textbox', { name: 'Message' }).fill('Hi {{{firstName}}}, see you Tuesday.');
  await send.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(send).toBeHidden();
  await expect(page.getByText('Message sent')).toBeVisible();

  // Block asks first: Cancel changes nothing, Block blocks; then the menu says Blocked and cannot block again.
  await row(page, 'Bob').getByRole('button', { name: 'Actions for Bob Babbage' }).click();
  await page.getByRole('menuitem', { name: 'Block' }).click();
  const confirmBlock = page.getByRole('dialog', { name: 'Block Contact' });
  await expect(confirmBlock).toContainText('Block Bob Babbage?');
  await confirmBlock.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirmBlock).toBeHidden();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await row(page, 'Bob').getByRole('button', { name: 'Actions for Bob Babbage' }).click();
  await page.getByRole('menuitem', { name: 'Block' }).click();
  await page.getByRole('dialog', { name: 'Block Contact' }).getByRole('button', { name: 'Block' }).click();
  await expect(page.getByText('Bob Babbage blocked')).toBeVisible({ timeout: 10_000 });
  await row(page, 'Bob').getByRole('button', { name: 'Actions for Bob Babbage' }).click();
  await expect(page.getByRole('menuitem', { name: /^Blocked/ })).toBeDisabled();
  await expect(page.getByRole('menuitem', { name: /^Send Message/ })).toBeDisabled();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toHaveCount(0);

  // Remove asks first: Cancel keeps the contact, Remove removes it.
  await row(page, 'Cy').getByRole('button', { name: 'Actions for Cy Gone' }).click();
  await page.getByRole('menuitem', { name: 'Remove' }).click();
  const confirmRemove = page.getByRole('dialog', { name: 'Remove Contact' });
  await expect(confirmRemove).toContainText('Remove Cy Gone? This cannot be undone.');
  await confirmRemove.getByRole('button', { name: 'Cancel' }).click();
  await expect(row(page, 'Cy')).toHaveCount(1);
  await row(page, 'Cy').getByRole('button', { name: 'Actions for Cy Gone' }).click();
  await page.getByRole('menuitem', { name: 'Remove' }).click();
  await page.getByRole('dialog', { name: 'Remove Contact' }).getByRole('button', { name: 'Remove' }).click();
  await expect(row(page, 'Cy')).toHaveCount(0);

  // Edit opens the contact's dialog.
  await row(page, 'Ada').getByRole('button', { name: 'Actions for Ada Lovelace' }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  await expect(page.getByRole('dialog', { name: 'Edit Contact' }).getByLabel('First Name')).toHaveValue('Ada');
  await page.getByRole('dialog', { name: 'Edit Contact' }).getByRole('button', { name: 'Cancel' }).click();

  // With rows selected the toolbars keep one line each: the page's never changes, the table's says what is selected.
  const pageToolbar = page.getByRole('button', { name: 'Download CSV' });
  const before = await pageToolbar.boundingBox();
  await row(page, 'Ada').getByRole('checkbox').check();
  await row(page, 'Bob').getByRole('checkbox').check();
  const selected = page.getByRole('group', { name: 'Selected contacts' });
  await expect(selected).toContainText('2 selected');
  const buttons = [
    selected.getByRole('button', { name: 'Add to List' }),
    selected.getByRole('button', { name: 'Send Message' }),
    selected.getByRole('button', { name: 'Check Number Types' }),
    selected.getByRole('button', { name: 'Delete' }),
  ];
  const tops = new Set<number>();
  for (const button of buttons) {
    await expectWithinGrid(page, button);
    const box = await button.boundingBox();
    tops.add(Math.round(box?.y ?? -1));
  }
  expect(tops.size, 'the selection actions share one line').toBe(1);
  expect(await pageToolbar.boundingBox()).toEqual(before);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1366);
  await selected.getByRole('button', { name: 'Clear selection' }).click();
  await expect(selected).toHaveCount(0);
});

test('Check Number Types on selected contacts: the price first, then the counts, and the types in their column', async ({ page }) => {
  const api = await signInToFreshAccount(page, 'Number Types Clinic', '/contacts');
  await addContact(api, { firstName: 'Ada', lastName: 'Lovelace', mobile: { number: '+14155550101' } });
  await addContact(api, { firstName: 'Nil', lastName: 'Number', mobile: { number: '12', country: 'US' } });
  await page.goto('/contacts');
  await row(page, 'Ada').getByRole('checkbox').check();
  await row(page, 'Nil').getByRole('checkbox').check();
  await page.getByRole('group', { name: 'Selected contacts' }).getByRole('button', { name: 'Check Number Types' }).click();

  const dialog = page.getByRole('dialog', { name: 'Check Number Types' });
  await expect(dialog).toContainText("the 2 selected contacts' numbers");
  await expect(dialog).toContainText('at most $0.02 in all');
  await dialog.getByRole('button', { name: 'Check' }).click();
  const result = dialog.getByRole('list', { name: 'Number type check result' });
  await expect(result).toContainText('1 contact given a type');
  await expect(result).toContainText('1 contact skipped: no valid number, or removed');
  await expect(dialog).toContainText('2 of 2 contacts looked at');
  await dialog.getByRole('button', { name: 'Close' }).click();

  // The types show in their column, which the column chooser adds.
  await page.getByRole('button', { name: 'Columns' }).click();
  await page.getByRole('checkbox', { name: 'Number Type' }).check();
  await page.keyboard.press('Escape');
  await expect(grid(page).getByRole('columnheader', { name: 'Number Type' })).toBeVisible();
  await expect(row(page, 'Ada')).toContainText('Landline or mobile');
});

test('Read Only sees the contacts without a row menu', async ({ page, browser, baseURL }) => {
  test.setTimeout(120_000);
  const api = await signInToFreshAccount(page, 'Read Only Clinic', '/contacts');
  await addContact(api, { firstName: 'Ada', lastName: 'Lovelace', mobile: { number: '+14155550101' } });
  const account = await page.request.get(`/v1/accounts/${api.accountId}`, { headers: api.headers });
  const accountName = ((await account.json()) as { data: { name: string } }).data.name;
  const added = await page.request.post(`/v1/accounts/${api.accountId}/users`, {
    headers: api.headers,
    data: { firstName: 'Cole', lastName: 'League', email: e2eColleague.email, role: 'ReadOnly' },
  });
  expect(added.status(), await added.text()).toBe(201);

  const context = await browser.newContext({ baseURL: baseURL ?? '', viewport: { width: 1366, height: 768 } });
  try {
    const reader = await context.newPage();
    await signIn(reader, '/contacts', e2eColleague, accountName);
    await expect(reader.getByTestId('account-name')).toHaveText(accountName);
    await expect(row(reader, 'Ada')).toContainText('(415) 555-0101');
    await expect(grid(reader).getByRole('button', { name: /^Actions for/ })).toHaveCount(0);
    await expect(grid(reader).getByRole('columnheader', { name: 'Actions' })).toHaveCount(0);
    await expect(row(reader, 'Ada').getByRole('checkbox')).toHaveCount(0);
  } finally {
    await context.close();
  }
});
