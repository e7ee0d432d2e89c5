import type { Page } from '@playwright/test';
import { type BrowserApi, signInToFreshAccount } from './browserApi.js';
import { expect, test } from './fixtures.js';
import { shownInUs } from './phoneText.js';

interface ApiMessage {
  id: string;
  status: string;
  direction: 'inbound' | 'outbound';
  message: string;
  conversation: { id: string };
  /** The account's number it went through (docs/api.md: the hosted product's shape). */
  phoneNumber: string;
  segments: number;
  price: number;
}

async function messagesOf(api: BrowserApi): Promise<ApiMessage[]> {
  const answer = await api.page.request.get(`/v1/accounts/${api.accountId}/messages?limit=50`, { headers: api.headers });
  expect(answer.status(), await answer.text()).toBe(200);
  return ((await answer.json()) as { data: ApiMessage[] }).data;
}

const card = (page: Page, number: string) => page.getByRole('region', { name: shownInUs(number) });

test('messaging: a new account texts a contact from its simulator number, sees it delivered, and gets the reply', async ({ page }) => {
  test.setTimeout(120_000);
  const api = await signInToFreshAccount(page, 'Messaging Clinic', '/contacts');

  // The new account got a simulator number at once.
  const numbers = await page.request.get(`/v1/accounts/${api.accountId}/phonenumbers`, { headers: api.headers });
  const [ours] = ((await numbers.json()) as { data: { number: string; status: string }[] }).data;
  expect(ours?.status).toBe('active');
  const business = ours?.number ?? '';

  // Quiet hours follow the recipient's clock; the run must not depend on the hour it runs at.
  const hours = await page.request.put(`/v1/accounts/${api.accountId}`, {
    headers: api.headers,
    data: { quietHours: { enabled: false, start: '08:00', end: '21:00' } },
  });
  expect(hours.status(), await hours.text()).toBe(200);

  const mobile = `+1415555${String(2000 + Math.floor(Math.random() * 7000))}`;
  const created = await page.request.post(`/v1/accounts/${api.accountId}/contacts`, {
    headers: api.headers,
    data: { firstName: 'Rita', lastName: 'Reply', mobile: { number: mobile, country: 'US' } },
  });
  expect(created.status(), await created.text()).toBe(201);

  // Send from the contacts page.
  await page.goto('/contacts');
  const row = page.getByRole('grid', { name: 'Contacts' }).getByRole('row').filter({ hasText: 'Rita' });
  await row.getByRole('checkbox').check();
  await page.getByRole('group', { name: 'Selected contacts' }).getByRole('button', { name: 'Send Message' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send Message to Rita Reply' });
  const text = 'Hi {{{firstName}}}, your cleaning is on Tuesday at 10:00. Reply to confirm.';
  await dialog.getByRole('textbox', { name: 'Message' }).fill(text);
  await dialog.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Message sent')).toBeVisible();

  // The engine's status reaches delivered: the simulator's receipt came back.
  await expect
    .poll(async () => (await messagesOf(api)).find((m) => m.direction === 'outbound')?.status, { timeout: 30_000 })
    .toBe('delivered');
  const [sent] = await messagesOf(api);
  expect(sent).toMatchObject({ message: 'Hi Rita, your cleaning is on Tuesday at 10:00. Reply to confirm.', segments: 1 });
  expect(sent?.phoneNumber).toBe(business);

  // The virtual phone shows what it received, delivered, and answers.
  await page.getByRole('navigation').getByRole('link', { name: 'Simulator' }).click();
  const phone = card(page, mobile);
  await expect(phone.getByText('Hi Rita, your cleaning is on Tuesday at 10:00. Reply to confirm.')).toBeVisible();
  await expect(phone.getByText(/Delivered/).first()).toBeVisible();
  await phone.getByRole('textbox', { name: `Reply from ${shownInUs(mobile)}` }).fill('Confirmed, see you Tuesday');
  await phone.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(phone.getByText('Confirmed, see you Tuesday')).toBeVisible();

  // The reply arrives in the same conversation, from the contact, to the account's number.
  await expect
    .poll(async () => (await messagesOf(api)).find((m) => m.direction === 'inbound')?.message, { timeout: 30_000 })
    .toBe('Confirmed, see you Tuesday');
  const reply = (await messagesOf(api)).find((m) => m.direction === 'inbound');
  expect(reply).toMatchObject({ status: 'received', conversation: { id: sent?.conversation.id } });
});
