import { signInToFreshAccount } from './browserApi.js';
import { expect, test } from './fixtures.js';
import { conversationGrid, conversationRow, imageLoaded, inviteColleague, tinyPng, unreadBadge } from './inbox.js';
import { shownInUs } from './phoneText.js';

/** Realtime updates go through the outbox and the websocket: give them more than expect's default 5 s. */
const live = { timeout: 15_000 };
const EMPTY = 'No Conversations Exist';

test('inbox: two users see a reply arrive live, one answers with a picture, the other closes the conversation', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  // User A: the e2e administrator, on an account of its own so no other spec's conversations show.
  const api = await signInToFreshAccount(page, 'Inbox Clinic', '/contacts');
  const hours = await page.request.put(`/v1/accounts/${api.accountId}`, {
    headers: api.headers,
    // Quiet hours follow the recipient's clock; the run must not depend on the hour it runs at.
    data: { quietHours: { enabled: false, start: '08:00', end: '21:00' } },
  });
  expect(hours.status(), await hours.text()).toBe(200);
  const mobile = `+1415555${String(3000 + Math.floor(Math.random() * 6000))}`;
  const contact = await page.request.post(`/v1/accounts/${api.accountId}/contacts`, {
    headers: api.headers,
    data: { firstName: 'Rita', lastName: 'Reply', mobile: { number: mobile, country: 'US' } },
  });
  expect(contact.status(), await contact.text()).toBe(201);

  // User B: a Sender of the same account, in a browser of their own.
  const colleague = await inviteColleague(browser, baseURL ?? '', api, 'Sender');
  const other = colleague.page;
  try {
    const users = [page, other];
    for (const user of users) {
      await user.goto('/conversations');
      await expect(user.getByRole('heading', { name: 'Conversations', exact: true })).toBeVisible();
      await expect(conversationGrid(user).getByText(EMPTY)).toBeVisible();
      await expect(unreadBadge(user)).toHaveCount(0);
    }

    // The contact texts first, from a virtual phone (a third page of A's browser).
    const simulator = await page.context().newPage();
    await simulator.goto('/simulator');
    const newPhone = simulator.locator('form').filter({ has: simulator.getByRole('textbox', { name: 'Phone number' }) });
    await newPhone.getByRole('textbox', { name: 'Phone number' }).fill(mobile);
    await newPhone.getByRole('textbox', { name: /^Message/ }).fill('Is Tuesday still on?');
    await newPhone.getByRole('button', { name: 'Send' }).click();
    const phone = simulator.getByRole('region', { name: shownInUs(mobile) });
    await expect(phone.getByText('Is Tuesday still on?')).toBeVisible();

    // Both users see the conversation appear, unread, and the badge rise: no reload.
    for (const user of users) {
      const row = conversationRow(user, 'Rita Reply');
      await expect(row).toBeVisible(live);
      await expect(row).toContainText('Is Tuesday still on?');
      await expect(row).toContainText('1 unread');
      await expect(row).toHaveClass(/conversation-unread/);
      await expect(unreadBadge(user)).toHaveText('1', live);
      await expect(user.getByRole('navigation', { name: 'Main menu' }).last().getByRole('link', { name: /Conversations/ })).toContainText('1');
    }

    // A opens it: reading it there clears the badge for B as well.
    await page.bringToFront();
    await conversationRow(page, 'Rita Reply').getByRole('link', { name: 'Rita Reply' }).click();
    await expect(page.getByRole('heading', { name: 'Rita Reply' })).toBeVisible();
    const log = page.getByRole('log', { name: 'Messages' });
    await expect(log.getByTestId('message').filter({ hasText: 'Is Tuesday still on?' })).toHaveAttribute('data-direction', 'incoming');
    await expect(unreadBadge(page)).toHaveCount(0, live);
    await expect(unreadBadge(other)).toHaveCount(0, live);
    await expect(conversationRow(other, 'Rita Reply')).not.toHaveClass(/conversation-unread/, live);

    // A answers with a picture alone.
    await page.getByRole('button', { name: 'Attach' }).click();
    const upload = page.getByRole('dialog', { name: 'Upload File' });
    await upload.getByLabel('Picture to upload').setInputFiles({ name: 'map.png', mimeType: 'image/png', buffer: tinyPng() });
    await expect(upload.getByText('map.png')).toBeVisible();
    await upload.getByRole('button', { name: 'Upload' }).click();
    await expect(upload).toBeHidden(live);
    await expect(page.getByRole('region', { name: 'Reply' }).getByText('map.png')).toBeVisible();
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const sent = log.locator('[data-testid="message"][data-direction="outgoing"]');
    await expect(sent).toHaveCount(1, live);
    const thumbnail = sent.locator('img');
    await expect(thumbnail).toBeVisible(live);
    await expect.poll(() => imageLoaded(thumbnail), live).toBe(true);
    await expect(sent.getByText('Delivered')).toBeVisible({ timeout: 30_000 });

    // B's list shows the answer as the last message, live.
    await expect(conversationRow(other, 'Rita Reply')).toContainText('1 attachment', live);
    await expect(conversationRow(other, 'Rita Reply')).not.toContainText('Is Tuesday still on?');

    // The virtual phone got the picture.
    const received = phone.getByRole('img', { name: 'Picture' });
    await expect(received).toBeVisible({ timeout: 30_000 });
    await expect.poll(() => imageLoaded(received), live).toBe(true);

    // A goes back to the list; B opens the conversation and closes it.
    await page.getByRole('link', { name: 'Back to Conversations' }).click();
    await expect(conversationRow(page, 'Rita Reply')).toContainText('1 attachment');
    await other.bringToFront();
    await conversationRow(other, 'Rita Reply').getByRole('link', { name: 'Rita Reply' }).click();
    await expect(other.getByRole('heading', { name: 'Rita Reply' })).toBeVisible();
    await expect(other.getByRole('log', { name: 'Messages' }).getByTestId('message')).toHaveCount(2);
    await other.getByRole('button', { name: 'Close Conversation' }).click();
    const confirm = other.getByRole('dialog', { name: 'Close Conversation' });
    await confirm.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(confirm).toBeHidden();
    await expect(other).toHaveURL(/\/conversations$/);

    // It leaves both lists without a reload, and shows among the closed ones.
    for (const user of users) {
      await expect(conversationRow(user, 'Rita Reply')).toHaveCount(0, live);
      await expect(conversationGrid(user).getByText(EMPTY)).toBeVisible();
      await expect(unreadBadge(user)).toHaveCount(0);
    }
    await page.getByLabel('Closed').check();
    await expect(conversationRow(page, 'Rita Reply')).toBeVisible(live);
    // Opened, it says since when it is closed and cannot be answered.
    await conversationRow(page, 'Rita Reply').getByRole('link', { name: 'Rita Reply' }).click();
    await expect(page.getByRole('alert').filter({ hasText: /^Closed .+\. This conversation is closed/ })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Reply', exact: true })).toHaveCount(0);
  } finally {
    await colleague.close();
  }
});
