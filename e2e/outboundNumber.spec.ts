import { bearerOf, type BrowserApi } from './browserApi.js';
import { expect, test } from './fixtures.js';
import { e2eTwoLines, e2eTwoLinesAccountName } from './globalSetup.js';
import { shownInUs } from './phoneText.js';
import { putSandboxCardOnFile, topUpWithSandboxCard } from './sandboxCard.js';
import { signIn } from './signIn.js';

interface ApiMessage {
  direction: 'inbound' | 'outbound';
  status: string;
  message: string;
  conversation: { id: string };
  /** The account's number it went through (docs/api.md: the hosted product's shape). */
  phoneNumber: string;
}

async function messagesOf(api: BrowserApi): Promise<ApiMessage[]> {
  const answer = await api.page.request.get(`/v1/accounts/${api.accountId}/messages?limit=50`, { headers: api.headers });
  expect(answer.status(), await answer.text()).toBe(200);
  return ((await answer.json()) as { data: ApiMessage[] }).data;
}

/** Buys one more simulator number for the account, named `name`; answers its E.164 number. */
async function buySecondNumber(api: BrowserApi, name: string): Promise<string> {
  const available = await api.page.request.get(`/v1/accounts/${api.accountId}/phonenumbers/available?country=US&limit=1`, { headers: api.headers });
  expect(available.status(), await available.text()).toBe(200);
  const [offer] = ((await available.json()) as { data: { number: string }[] }).data;
  expect(offer, 'a number for sale').toBeDefined();
  const bought = await api.page.request.post(`/v1/accounts/${api.accountId}/phonenumbers`, {
    headers: api.headers,
    data: { number: offer?.number, name },
  });
  expect(bought.status(), await bought.text()).toBe(201);
  return offer?.number ?? '';
}

test('inbox: with two numbers, a conversation starts from the chosen one, and each number keeps its own', async ({ page }) => {
  test.setTimeout(120_000);
  // An account on a paid plan: a trial account may not add numbers.
  await signIn(page, '/contacts', e2eTwoLines, e2eTwoLinesAccountName);
  const headers = await bearerOf(page);
  const accounts = await page.request.get('/v1/accounts', { headers });
  const accountId = ((await accounts.json()) as { data: { id: string; name: string }[] }).data.find((a) => a.name === e2eTwoLinesAccountName)?.id;
  expect(accountId).toBeDefined();
  const api: BrowserApi = { page, headers, accountId: accountId ?? '' };
  // The sends are paid from the balance: credit it with the sandbox card, as a customer would.
  await putSandboxCardOnFile(api);
  await topUpWithSandboxCard(api, '10');
  const hours = await page.request.put(`/v1/accounts/${api.accountId}`, {
    headers: api.headers,
    // Quiet hours follow the recipient's clock; the run must not depend on the hour it runs at.
    data: { quietHours: { enabled: false, start: '08:00', end: '21:00' } },
  });
  expect(hours.status(), await hours.text()).toBe(200);
  const listed = await page.request.get(`/v1/accounts/${api.accountId}/phonenumbers`, { headers: api.headers });
  const [ours] = ((await listed.json()) as { data: { number: string; name: string }[] }).data;
  const first = ours?.number ?? '';
  const firstLabel = ours === undefined || ours.name === '' ? shownInUs(first) : `${ours.name} (${shownInUs(first)})`;
  const second = await buySecondNumber(api, 'Front Desk');
  expect(second).not.toBe(first);
  const mobile = `+1415555${String(2000 + Math.floor(Math.random() * 7000))}`;
  const contact = await page.request.post(`/v1/accounts/${api.accountId}/contacts`, {
    headers: api.headers,
    data: { firstName: 'Otto', lastName: 'Outbound', mobile: { number: mobile, country: 'US' } },
  });
  expect(contact.status(), await contact.text()).toBe(201);

  /** Start Conversation from `from` ('Automatic' or a number's label) with Otto. */
  const start = async (from: string): Promise<void> => {
    await page.goto('/conversations');
    await page.getByRole('button', { name: 'Start Conversation' }).click();
    const dialog = page.getByRole('dialog', { name: 'Start Conversation' });
    await dialog.getByRole('combobox', { name: 'Choose Outbound Phone Number' }).click();
    await page.getByRole('option', { name: from }).click();
    await dialog.getByRole('combobox', { name: 'Contact' }).fill('Otto');
    await page.getByRole('option', { name: /Otto Outbound/ }).click();
  };
  const reply = async (text: string): Promise<void> => {
    const box = page.getByRole('region', { name: 'Reply' });
    await box.getByRole('textbox', { name: 'Message' }).fill(text);
    await box.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(page.getByRole('log', { name: 'Messages' }).getByTestId('message').filter({ hasText: text })).toBeVisible({ timeout: 15_000 });
  };

  // The second number, chosen: Otto has no conversation yet, so a new message opens from it.
  await start(`Front Desk (${shownInUs(second)})`);
  await expect(page.getByRole('heading', { name: 'Otto Outbound' })).toBeVisible();
  await expect(page.getByTestId('our-number')).toHaveText(`via ${shownInUs(second)}`);
  await reply('Your table for two is booked.');

  // The first number: its own conversation, although Otto has one on the second.
  await start(firstLabel);
  await expect(page.getByTestId('our-number')).toHaveText(`via ${shownInUs(first)}`);
  await reply('Parking is free after 6 pm.');

  // Back on the second, the existing conversation is offered rather than a new one.
  await start(`Front Desk (${shownInUs(second)})`);
  const offered = page.getByRole('list', { name: 'Conversations of the contact' }).getByRole('button');
  await expect(offered).toHaveCount(1);
  await expect(offered).toContainText('Your table for two is booked.');

  // Each went out from the number it was sent from, and was delivered.
  await expect
    .poll(async () => (await messagesOf(api)).filter((m) => m.direction === 'outbound' && m.status === 'delivered').length, { timeout: 30_000 })
    .toBe(2);
  const sent = await messagesOf(api);
  const from = (text: string) => sent.find((m) => m.message === text)?.phoneNumber;
  expect(from('Your table for two is booked.')).toBe(second);
  expect(from('Parking is free after 6 pm.')).toBe(first);
  expect(new Set(sent.map((m) => m.conversation.id)).size).toBe(2);
});
