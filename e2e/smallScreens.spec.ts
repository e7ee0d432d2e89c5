import type { Locator, Page } from '@playwright/test';
import { type BrowserApi, createdId, signInToFreshAccount } from './browserApi.js';
import { expect, test } from './fixtures.js';
import { signIn } from './signIn.js';

/*
 * The product on a phone (390 × 844): the shell (side menu in a drawer, the top bar's items in the account
 * menu), the contacts table, the inbox (the list, then a conversation, and back) and the send box. Nothing
 * may reach past the right edge: neither the page (document.documentElement.scrollWidth) nor what the fixed
 * top bar or a clipped box would hide.
 */
const WIDTH = 390;
test.use({ viewport: { width: WIDTH, height: 844 } });

const live = { timeout: 15_000 };

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth), 'the page is no wider than the phone').toBeLessThanOrEqual(WIDTH);
}

/** Wholly on screen, and not cut off by a box that hides what overflows it. */
async function expectOnScreen(element: Locator): Promise<void> {
  await expect(element).toBeInViewport({ ratio: 1 });
  const box = await element.boundingBox();
  expect(box).not.toBeNull();
  expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
  expect((box?.x ?? WIDTH) + (box?.width ?? 0)).toBeLessThanOrEqual(WIDTH);
}

async function quietHoursOff(api: BrowserApi): Promise<void> {
  const hours = await api.page.request.put(`/v1/accounts/${api.accountId}`, {
    headers: api.headers,
    // Quiet hours follow the recipient's clock; the run must not depend on the hour it runs at.
    data: { quietHours: { enabled: false, start: '08:00', end: '21:00' } },
  });
  expect(hours.status(), await hours.text()).toBe(200);
}

async function addContact(api: BrowserApi, body: object): Promise<string> {
  const answer = await api.page.request.post(`/v1/accounts/${api.accountId}/contacts`, { headers: api.headers, data: body });
  expect(answer.status(), await answer.text()).toBe(201);
  return createdId(answer);
}

async function ourNumber(api: BrowserApi): Promise<string> {
  const numbers = await api.page.request.get(`/v1/accounts/${api.accountId}/phonenumbers`, { headers: api.headers });
  const [ours] = ((await numbers.json()) as { data: { number: string }[] }).data;
  expect(ours).toBeDefined();
  return ours?.number ?? '';
}

const suffix = (): string => String(1000 + Math.floor(Math.random() * 8999));

test('shell on a phone: the side menu is a drawer behind a menu button, the top bar folds into the account menu', async ({ page }) => {
  await signIn(page, '/');
  const banner = page.getByRole('banner');
  for (const button of await banner.getByRole('button').filter({ visible: true }).all()) await expectOnScreen(button);
  await expect(banner.getByRole('button', { name: /^Upgrade/ })).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Main menu' }).filter({ visible: true })).toHaveCount(0);

  // The menu button opens the side menu as a drawer; choosing a page closes it.
  await banner.getByRole('button', { name: 'Open menu' }).click();
  const menu = page.getByRole('navigation', { name: 'Main menu' }).filter({ visible: true });
  await expect(menu).toBeVisible();
  await menu.getByRole('link', { name: 'Contacts' }).click();
  await expect(page).toHaveURL(/\/contacts$/);
  await expect(page.getByRole('heading', { name: 'Contacts', level: 1 })).toBeVisible();
  await expect(menu).toHaveCount(0);

  // The account's name, Upgrade and Account Settings are in the account menu, with Profile and the rest.
  await banner.getByRole('button', { name: 'Account menu' }).click();
  const accountMenu = page.getByRole('menu');
  await expect(accountMenu).toContainText('Harbor Dental');
  await expect(accountMenu.getByRole('menuitem', { name: /^Upgrade \(\d+ days? left\)$/ })).toBeVisible();
  for (const item of ['Account Settings', 'Profile', 'Switch Account', 'Logout']) {
    await expectOnScreen(accountMenu.getByRole('menuitem', { name: item }));
  }
  await accountMenu.getByRole('menuitem', { name: 'Account Settings' }).click();
  await expect(page.getByRole('dialog', { name: /Account Settings/ })).toBeVisible();
  await expectNoSidewaysScroll(page);
});

test('contacts on a phone: fewer columns, each row menu on screen, selection actions on one line', async ({ page }) => {
  test.setTimeout(90_000);
  const api = await signInToFreshAccount(page, 'Phone Contacts', '/contacts');
  await quietHoursOff(api);
  await addContact(api, { firstName: 'Ada', lastName: 'Lovelace', mobile: { number: '+14155550101' }, email: 'ada@example.test' });
  await addContact(api, { firstName: 'Bob', lastName: 'Babbage', mobile: { number: '+447400123456' }, email: 'bob@example.test' });
  await page.goto('/contacts');
  const grid = page.getByRole('grid', { name: 'Contacts' });
  await expect(grid.getByRole('row')).toHaveCount(3);
  const scroller = grid.locator('.MuiDataGrid-virtualScroller');
  expect(await scroller.evaluate((element) => element.scrollWidth - element.clientWidth), 'the table fits without scrolling sideways').toBeLessThanOrEqual(0);
  await expect(grid.getByRole('columnheader', { name: 'First Name' })).toBeVisible();
  await expect(grid.getByRole('columnheader', { name: 'Mobile' })).toBeVisible();
  await expect(grid.getByRole('columnheader', { name: 'Email' })).toHaveCount(0);
  await expect(grid.getByRole('row').filter({ hasText: 'Bob' })).toContainText('+44 7400 123456');
  await expectOnScreen(page.getByRole('button', { name: 'Add', exact: true }));
  await expectNoSidewaysScroll(page);

  // A row's menu: on screen, and Send Message works from it.
  const ada = grid.getByRole('row').filter({ hasText: 'Ada' });
  const kebab = ada.getByRole('button', { name: 'Actions for Ada Lovelace' });
  await expectOnScreen(kebab);
  await kebab.click();
  await page.getByRole('menuitem', { name: 'Send Message' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send Message to Ada Lovelace' });
  await dialog.getByRole('textbox', { name: 'Message' }).fill('Your new card is ready.');
  const send = dialog.getByRole('button', { name: 'Send', exact: true });
  await expectOnScreen(send);
  await send.click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Message sent')).toBeVisible();

  // Selected rows: the count and the actions on one line; what has no room is in a menu.
  await ada.getByRole('checkbox').check();
  await grid.getByRole('row').filter({ hasText: 'Bob' }).getByRole('checkbox').check();
  const selected = page.getByRole('group', { name: 'Selected contacts' });
  await expect(selected).toContainText('2 selected');
  await expectOnScreen(selected);
  expect((await selected.boundingBox())?.height ?? 999).toBeLessThanOrEqual(48);
  await expectOnScreen(selected.getByRole('button', { name: 'Send Message' }));
  await selected.getByRole('button', { name: 'More selection actions' }).click();
  await expect(page.getByRole('menu').getByRole('menuitem')).toHaveText(['Add to List', 'Check Number Types', 'Delete']);
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await expect(page.getByRole('dialog', { name: 'Remove Contacts' })).toContainText('Remove 2 contacts?');
  await page.getByRole('dialog', { name: 'Remove Contacts' }).getByRole('button', { name: 'Cancel' }).click();
  await expectNoSidewaysScroll(page);
});

test('inbox on a phone: the list, a conversation read and answered, and back', async ({ page }) => {
  test.setTimeout(120_000);
  const api = await signInToFreshAccount(page, 'Phone Inbox', '/conversations');
  await quietHoursOff(api);
  const tail = suffix();
  const mobile = `+1415555${tail}`;
  const shown = `(415) 555-${tail}`;
  // Someone the account does not know texts in: a contact without a name, named by the number.
  const texted = await page.request.post(`/v1/accounts/${api.accountId}/simulator/phones/${encodeURIComponent(mobile)}/messages`, {
    headers: api.headers,
    data: { to: await ourNumber(api), body: 'Do you have anything on Friday afternoon?', picture: false },
  });
  expect(texted.status(), await texted.text()).toBe(201);

  await page.goto('/conversations');
  const list = page.getByRole('grid', { name: 'Conversations' });
  const row = list.getByRole('row').filter({ hasText: shown });
  await expect(row).toBeVisible(live);
  await expect(row).toContainText('1 unread');
  await expect(row).toContainText('Do you have anything on Friday');
  await expect(list.getByText(mobile)).toHaveCount(0);
  await expectOnScreen(row.getByRole('link', { name: shown }));
  await expectNoSidewaysScroll(page);

  await row.getByRole('link', { name: shown }).click();
  await expect(page.getByRole('heading', { name: shown })).toBeVisible();
  const log = page.getByRole('log', { name: 'Messages' });
  await expect(log.getByTestId('message').filter({ hasText: 'Do you have anything on Friday afternoon?' })).toHaveAttribute('data-direction', 'incoming');
  for (const action of ['Back to Conversations', 'Mark Unread', 'Close Conversation']) await expectOnScreen(page.getByRole('button', { name: action }).or(page.getByRole('link', { name: action })));
  await expectNoSidewaysScroll(page);

  const reply = page.getByRole('region', { name: 'Reply' });
  await reply.getByRole('textbox', { name: 'Message' }).fill('Yes, 3 pm is free. Shall I book it?');
  await reply.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(log.locator('[data-testid="message"][data-direction="outgoing"]')).toContainText('Yes, 3 pm is free.', live);

  await page.getByRole('link', { name: 'Back to Conversations' }).click();
  await expect(page).toHaveURL(/\/conversations$/);
  await expect(list.getByRole('row').filter({ hasText: shown })).toContainText('Yes, 3 pm is free.', live);
  await expect(list.getByRole('row').filter({ hasText: shown })).not.toContainText('unread');
  await expectNoSidewaysScroll(page);
});

/** The hour of day now in New York, where the contact lives (a 212 number). */
const newYorkHour = (): number =>
  Number(new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', hour: 'numeric', hourCycle: 'h23' }).format(new Date()));
const hhmm = (hour: number): string => `${String(hour % 24).padStart(2, '0')}:00`;

test('send box on a phone: every control on screen, also when it offers Send now and Send at the opening', async ({ page }) => {
  test.setTimeout(90_000);
  const api = await signInToFreshAccount(page, 'Phone Send Box', '/conversations');
  // The contact's acceptable hours are closed now, so the first message offers both choices.
  const hour = newYorkHour();
  const hours = await page.request.put(`/v1/accounts/${api.accountId}`, {
    headers: api.headers,
    data: { quietHours: { enabled: true, start: hhmm(hour + 2), end: hhmm(hour + 3) } },
  });
  expect(hours.status(), await hours.text()).toBe(200);
  const contactId = await addContact(api, { firstName: 'Maximiliana', lastName: 'Featherstonehaugh', mobile: { number: `+1212555${suffix()}`, country: 'US' } });
  const start = await page.request.post(`/v1/accounts/${api.accountId}/conversations`, { headers: api.headers, data: { contact: { id: contactId } } });
  expect(start.status(), await start.text()).toBe(201);
  const conversationId = ((await start.json()) as { data: { id: string } }).data.id;

  await page.goto(`/conversations/${conversationId}`);
  const reply = page.getByRole('region', { name: 'Reply' });
  await reply.getByRole('textbox', { name: 'Message' }).fill('Hi {{{firstName}}}, your crown is ready to fit.');
  await expect(reply.getByTestId('outside-hours')).toBeVisible();
  const controls = [
    reply.getByRole('textbox', { name: 'Message' }),
    reply.getByRole('button', { name: 'Insert Token' }),
    reply.getByRole('button', { name: 'Choose Template' }),
    reply.getByRole('button', { name: 'Attach' }),
    reply.getByRole('button', { name: 'Send now' }),
    reply.getByRole('button', { name: `Send at ${hhmm(hour + 2)}` }),
  ];
  for (const control of controls) await expectOnScreen(control);
  await expectNoSidewaysScroll(page);

  await reply.getByRole('button', { name: 'Send now' }).click();
  const log = page.getByRole('log', { name: 'Messages' });
  await expect(log.locator('[data-testid="message"][data-direction="outgoing"]')).toContainText('Hi Maximiliana, your crown is ready to fit.', live);
  await expect(reply.getByRole('textbox', { name: 'Message' })).toHaveValue('');
  await expectNoSidewaysScroll(page);
});
