import type { Page } from '@playwright/test';
import { bearerOf, createdId, signInToFreshAccount } from './browserApi.js';
import { expect, test } from './fixtures.js';
import { shownInUs } from './phoneText.js';
import { submitSignIn } from './signIn.js';

/** Realtime updates go through the outbox and the websocket: give them more than expect's default 5 s. */
const live = { timeout: 15_000 };

/** The hour of day now in New York, where the contact lives (a 212 number). */
const newYorkHour = (): number =>
  Number(new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', hour: 'numeric', hourCycle: 'h23' }).format(new Date()));

const hhmm = (hour: number): string => `${String(hour % 24).padStart(2, '0')}:00`;

async function verifyFromMailbox(page: Page, email: string): Promise<void> {
  const mailbox = await page.request.get(`/dev/mailbox.json?to=${encodeURIComponent(email)}`);
  const { data } = (await mailbox.json()) as { data: { text: string }[] };
  const link = /https?:\/\/\S+\/v1\/verify\?token=[\w-]+/.exec(data[0]?.text ?? '')?.[0];
  expect(link, 'a verification link in the local mailbox').toBeDefined();
  await page.goto(link ?? '');
  await expect(page.getByText(/Your account has now been verified/)).toBeVisible();
  await page.waitForURL((url) => url.pathname !== '/verified', { timeout: 10_000 });
}

/*
 * The README's story, at any hour: sign up, verify, create the account, add a contact, text it, see it
 * arrive on a virtual phone, answer from the phone, see the answer arrive live, reply, and the reply goes
 * at once. The contact's acceptable hours are made to be closed now (as at 03:00 in their zone): the first
 * message, unasked, waits unless the sender confirms it; the reply to someone who just wrote never waits.
 */
test('a newcomer texts a contact outside its acceptable hours, gets the answer live and replies at once', async ({ page }) => {
  test.setTimeout(180_000);
  const email = `newcomer-${String(Date.now())}@example.test`;
  const password = 'Harbour-Lights-77';
  await page.goto(`/signup?email=${encodeURIComponent(email)}&first_name=Nadia&last_name=Okafor&country=US`);
  await page.getByLabel('Mobile').fill('415 555 0188');
  await page.locator('input[name="password"]').fill(password);
  await page.getByLabel('I agree to the terms and conditions').check();
  await page.getByLabel('I agree to receive communication about my account').check();
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await submitSignIn(page, { email, password });
  await verifyFromMailbox(page, email);

  const create = page.getByRole('dialog', { name: 'Create Account' });
  await expect(create).toBeVisible();
  await create.getByLabel('Account Name').fill('Okafor Dental');
  await create.getByLabel('One to one').check();
  await create.getByLabel('Business Address').fill('12 Harbour St, New York, NY');
  await create.getByLabel('Business Phone').fill('(212) 555-0110');
  await create.getByLabel('Business Email').fill('desk@okafor.example');
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByTestId('account-name')).toHaveText('Okafor Dental');

  // The contact's acceptable hours are closed now: they open in two hours, New York time.
  const headers = await bearerOf(page);
  const accountId = await page.evaluate(() => window.localStorage.getItem('parley.account') ?? '');
  const hour = newYorkHour();
  const hours = await page.request.put(`/v1/accounts/${accountId}`, {
    headers,
    data: { quietHours: { enabled: true, start: hhmm(hour + 2), end: hhmm(hour + 3) } },
  });
  expect(hours.status(), await hours.text()).toBe(200);

  // Add the contact.
  const mobile = `+1212555${String(1000 + Math.floor(Math.random() * 8999))}`;
  await page.goto('/contacts');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  const add = page.getByRole('dialog', { name: 'Add Contact' });
  await add.getByLabel('First Name').fill('Rosa');
  await add.getByLabel('Last Name').fill('Quinn');
  await add.getByRole('textbox', { name: 'Mobile' }).fill(mobile);
  await add.getByRole('button', { name: 'Save' }).click();
  await expect(add).toBeHidden();

  // Text it: the send box says the hours are closed and offers both choices; the sender sends now.
  const row = page.getByRole('grid', { name: 'Contacts' }).getByRole('row').filter({ hasText: 'Rosa' });
  await row.getByRole('checkbox').check();
  await page.getByRole('group', { name: 'Selected contacts' }).getByRole('button', { name: 'Send Message' }).click();
  const dialog = page.getByRole('dialog', { name: /^Send Message to Rosa/ });
  await dialog.getByRole('textbox', { name: 'Message' }).fill('Hi {{{firstName}}}, your check-up is on Friday at 9:00.');
  await expect(dialog.getByTestId('outside-hours')).toContainText('Outside acceptable hours for this contact (local');
  await expect(dialog.getByRole('button', { name: `Send at ${hhmm(hour + 2)}` })).toBeVisible();
  await dialog.getByRole('button', { name: 'Send now' }).click();
  await expect(dialog).toBeHidden();

  // It arrives on the virtual phone, which answers.
  await page.getByRole('navigation').getByRole('link', { name: 'Simulator' }).first().click();
  const phone = page.getByRole('region', { name: shownInUs(mobile) });
  await expect(phone.getByText('Hi Rosa, your check-up is on Friday at 9:00.')).toBeVisible(live);
  await phone.getByRole('textbox', { name: `Reply from ${shownInUs(mobile)}` }).fill('Can we make it 10?');
  await phone.getByRole('button', { name: 'Send', exact: true }).click();

  // The answer reaches the inbox live; the reply to it goes at once, whatever the hour.
  await page.getByRole('navigation').getByRole('link', { name: /Conversations/ }).first().click();
  const conversation = page.getByRole('grid').getByRole('row').filter({ hasText: 'Can we make it 10?' });
  await expect(conversation).toBeVisible(live);
  await conversation.getByRole('link').first().click();
  const log = page.getByRole('log', { name: 'Messages' });
  await expect(log.getByText('Can we make it 10?')).toBeVisible();
  const reply = page.getByRole('region', { name: 'Reply' });
  await reply.getByRole('textbox', { name: 'Message' }).fill('10:00 works, see you Friday.');
  await expect(reply.getByTestId('outside-hours')).toHaveCount(0);
  await reply.getByRole('button', { name: 'Send', exact: true }).click();
  const answered = log.getByTestId('message').filter({ hasText: '10:00 works, see you Friday.' });
  await expect(answered).toBeVisible(live);
  await expect(answered.getByTestId('held-note')).toHaveCount(0);
  await page.goto('/simulator');
  await expect(page.getByRole('region', { name: shownInUs(mobile) }).getByText('10:00 works, see you Friday.')).toBeVisible({ timeout: 30_000 });
});

test('a first message outside the hours waits, and says until when, unless an administrator sends it now', async ({ page }) => {
  test.setTimeout(120_000);
  const api = await signInToFreshAccount(page, 'Held Clinic', '/contacts');
  const hour = newYorkHour();
  const put = await page.request.put(`/v1/accounts/${api.accountId}`, {
    headers: api.headers,
    data: { quietHours: { enabled: true, start: hhmm(hour + 2), end: hhmm(hour + 3) } },
  });
  expect(put.status(), await put.text()).toBe(200);
  const mobile = `+1212555${String(1000 + Math.floor(Math.random() * 8999))}`;
  const created = await page.request.post(`/v1/accounts/${api.accountId}/contacts`, {
    headers: api.headers,
    data: { firstName: 'Hal', lastName: 'Held', mobile: { number: mobile, country: 'US' } },
  });
  expect(created.status(), await created.text()).toBe(201);
  const contactId = await createdId(created);
  const start = await page.request.post(`/v1/accounts/${api.accountId}/conversations`, { headers: api.headers, data: { contact: { id: contactId } } });
  expect(start.status(), await start.text()).toBe(201);
  const conversationId = ((await start.json()) as { data: { id: string } }).data.id;

  await page.goto(`/conversations/${conversationId}`);
  const reply = page.getByRole('region', { name: 'Reply' });
  await reply.getByRole('textbox', { name: 'Message' }).fill('Your results are ready.');
  await expect(reply.getByTestId('outside-hours')).toBeVisible();
  await reply.getByRole('button', { name: `Send at ${hhmm(hour + 2)}` }).click();
  const log = page.getByRole('log', { name: 'Messages' });
  const held = log.getByTestId('message').filter({ hasText: 'Your results are ready.' });
  await expect(held.getByTestId('held-note')).toHaveText(`Held until ${hhmm(hour + 2)} recipient time`, live);

  // The side menu's Admin shows the count, and Approvals under it; Send now on the message lets it go.
  const menu = page.getByRole('navigation', { name: 'Main menu' }).last();
  await expect(menu.getByTestId('held-badge').first()).toHaveText('1', live);
  await menu.getByRole('button', { name: /Admin/ }).click();
  await expect(menu.getByRole('link', { name: /Approvals/ })).toContainText('1');
  await held.getByRole('button', { name: 'Send now' }).click();
  await expect(held.getByTestId('held-note')).toHaveCount(0, live);
  await expect(held.getByText('Delivered')).toBeVisible({ timeout: 30_000 });
});
