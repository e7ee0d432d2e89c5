import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { type BrowserApi, freshAccount, signInToFreshAccount } from './browserApi.js';
import { expect, test } from './fixtures.js';
import { e2eColleague } from './globalSetup.js';
import { shownInUs } from './phoneText.js';
import { signIn } from './signIn.js';

/*
 * /notifications: an administrator adds a webhook (its signing secret shown once), changes its events and
 * removes it, the form refusing a bad URL, a bad e-mail address and an address that is not public; Read Only
 * sees the notifications without Add, Edit or Remove; the Webhooks integration page shows the webhooks only,
 * with their delivery log. Each test works in an account of its own.
 *
 * The webhooks go to a name under .test: a name is only resolved when a delivery connects. The delivery
 * log's test runs a receiver on loopback, which the suite's server allows (FETCH_ALLOWED_HOSTS=127.0.0.1,
 * globalSetup.ts).
 */

const WEBHOOK_URL = 'https://hooks.parley.test/events';

const grid = (page: Page) => page.getByRole('grid', { name: 'Notifications' });
const rowOf = (page: Page, destination: string) => grid(page).getByRole('row').filter({ hasText: destination });

/** A webhook added through the API, as another member would; answers its id. */
async function addWebhook(api: BrowserApi, destination: string, eventTypes: string[]): Promise<string> {
  const answer = await api.page.request.post(`/v1/accounts/${api.accountId}/notifications`, {
    headers: api.headers,
    data: { type: 'webhook', destination, eventTypes },
  });
  expect(answer.status(), await answer.text()).toBe(201);
  return ((await answer.json()) as { data: { id: string } }).data.id;
}

test('an administrator adds a webhook, sees its secret once, changes its events and removes it', async ({ page, baseURL }) => {
  // Many steps, each slow while browsers and the server share two busy cores.
  test.setTimeout(120_000);
  const api = await signInToFreshAccount(page, 'Hook Works');
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL ?? '' });
  await page.goto('/notifications');
  await expect(grid(page).getByText('No Notifications Exist')).toBeVisible();

  await page.getByRole('main').getByRole('button', { name: 'Add Notification' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Notification' });
  const destination = dialog.getByRole('textbox', { name: 'Destination' });
  await dialog.getByRole('checkbox', { name: 'Message received' }).check();
  await destination.fill('hooks.parley.test/events');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Valid URL with http or https prefix required')).toBeVisible();
  // The server refuses an address that is not public (the suite's server allows only loopback, for the
  // delivery test's receiver); its message lands on the field too.
  await destination.fill('http://10.0.0.5/events');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('10.0.0.5 is not a public address (private)')).toBeVisible();
  await dialog.getByRole('radio', { name: 'Email' }).check();
  await destination.fill('ops.example.com');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Invalid email address')).toBeVisible();

  await dialog.getByRole('radio', { name: 'Webhook' }).check();
  await destination.fill(WEBHOOK_URL);
  await dialog.getByRole('button', { name: 'Save' }).click();
  const secretDialog = page.getByRole('dialog', { name: 'Signing Secret' });
  await expect(secretDialog.getByText('This secret is shown once; copy it now.')).toBeVisible();
  const secret = await secretDialog.getByRole('textbox', { name: 'Secret' }).inputValue();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  await secretDialog.getByRole('button', { name: 'Copy the secret' }).click();
  await expect(page.getByText('Secret copied')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await secretDialog.getByRole('button', { name: 'Done' }).click();
  await expect(secretDialog).toBeHidden();
  await expect(rowOf(page, WEBHOOK_URL)).toContainText('Message received');
  await expect(rowOf(page, WEBHOOK_URL)).toContainText('Enabled');

  // Never again: not after a reload, not from the API.
  await page.reload();
  await expect(rowOf(page, WEBHOOK_URL)).toBeVisible();
  await expect(page.getByText(secret)).toHaveCount(0);
  const listed = await page.request.get(`/v1/accounts/${api.accountId}/notifications`, { headers: api.headers });
  expect(await listed.text()).not.toContain(secret);

  await page.getByRole('button', { name: `Edit ${WEBHOOK_URL}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Notification' });
  await expect(edit.getByRole('radio', { name: 'Email' })).toBeDisabled();
  await edit.getByRole('checkbox', { name: 'Message received' }).uncheck();
  await edit.getByRole('checkbox', { name: 'Contact opted out' }).check();
  await edit.getByRole('checkbox', { name: 'Conversation closed' }).check();
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(page.getByText('Notification saved')).toBeVisible();
  await expect(rowOf(page, WEBHOOK_URL)).toContainText('Contact opted out');
  await expect(rowOf(page, WEBHOOK_URL)).not.toContainText('Message received');
  const saved = (await (await page.request.get(`/v1/accounts/${api.accountId}/notifications`, { headers: api.headers })).json()) as {
    data: { eventTypes: string[] }[];
  };
  expect(saved.data.map((n) => n.eventTypes)).toEqual([['contact-opt-out', 'conversation-closed']]);

  await page.getByRole('button', { name: `Remove ${WEBHOOK_URL}` }).click();
  await page.getByRole('dialog', { name: 'Remove Notification' }).getByRole('button', { name: 'Remove' }).click();
  // The row goes (the notice waits behind 'Notification saved', so the table says it first).
  await expect(grid(page).getByText('No Notifications Exist')).toBeVisible();
});

test('Read Only sees the notifications on a phone, without Add, Edit or Remove', async ({ page, browser, baseURL }) => {
  test.setTimeout(120_000);
  const api = await signInToFreshAccount(page, 'Hook Readers');
  await addWebhook(api, WEBHOOK_URL, ['message-received', 'message-status']);
  const account = await page.request.get(`/v1/accounts/${api.accountId}`, { headers: api.headers });
  const accountName = ((await account.json()) as { data: { name: string } }).data.name;
  const added = await page.request.post(`/v1/accounts/${api.accountId}/users`, {
    headers: api.headers,
    data: { firstName: 'Cole', lastName: 'League', email: e2eColleague.email, role: 'ReadOnly' },
  });
  expect(added.status(), await added.text()).toBe(201);

  const context = await browser.newContext({ baseURL: baseURL ?? '', viewport: { width: 390, height: 844 } });
  try {
    const reader = await context.newPage();
    await signIn(reader, '/notifications', e2eColleague, accountName);
    await expect(rowOf(reader, WEBHOOK_URL)).toContainText('Message status');
    await expect(reader.getByRole('button', { name: 'Add Notification' })).toHaveCount(0);
    await expect(reader.getByRole('button', { name: `Edit ${WEBHOOK_URL}` })).toHaveCount(0);
    await expect(reader.getByRole('button', { name: `Remove ${WEBHOOK_URL}` })).toHaveCount(0);
    await expect(reader.getByRole('button', { name: `Deliveries of ${WEBHOOK_URL}` })).toBeVisible();
    expect(await reader.evaluate(() => document.documentElement.scrollWidth), 'the page is no wider than the phone').toBeLessThanOrEqual(390);
  } finally {
    await context.close();
  }
});

/** A webhook receiver on loopback that answers 200 and keeps what it got. */
async function startReceiver(): Promise<{ url: string; bodies: string[]; close: () => Promise<void> }> {
  const bodies: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}/parley`;
  return {
    url,
    bodies,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

test('an administrator adds a webhook, a customer texts, and the delivery shows in the log with 200', async ({ page }) => {
  test.setTimeout(120_000);
  const receiver = await startReceiver();
  try {
    await signIn(page, '/');
    const api = await freshAccount(page, 'Hook Log');
    await addWebhook(api, receiver.url, ['message-received']);
    const mobile = `+1415555${String(3000 + Math.floor(Math.random() * 6000))}`;

    const simulator = await page.context().newPage();
    await simulator.goto('/simulator');
    const newPhone = simulator.locator('form').filter({ has: simulator.getByRole('textbox', { name: 'Phone number' }) });
    await newPhone.getByRole('textbox', { name: 'Phone number' }).fill(mobile);
    await newPhone.getByRole('textbox', { name: /^Message/ }).fill('Do you open on Sundays?');
    await newPhone.getByRole('button', { name: 'Send' }).click();
    await expect(simulator.getByRole('region', { name: shownInUs(mobile) }).getByText('Do you open on Sundays?')).toBeVisible();
    await simulator.close();

    await expect.poll(() => receiver.bodies.length, { timeout: 20_000 }).toBe(1);
    expect(JSON.parse(receiver.bodies[0] ?? '{}')).toMatchObject({ type: 'message-received', data: { message: { message: 'Do you open on Sundays?' } } });

    // The Webhooks integration page shows the same endpoint (and not the e-mail notification), with its log.
    await api.page.request.post(`/v1/accounts/${api.accountId}/notifications`, {
      headers: api.headers,
      data: { type: 'email', destination: 'desk@example.com', eventTypes: ['message-received'] },
    });
    await page.goto('/integrations');
    await expect(page.getByRole('listitem').filter({ hasText: 'Webhooks' })).toContainText('Connected');
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await expect(page).toHaveURL(/\/integrations\/webhooks$/);
    await expect(rowOf(page, receiver.url)).toBeVisible();
    await expect(grid(page).getByText('desk@example.com')).toHaveCount(0);
    await page.getByRole('main').getByRole('button', { name: 'Add Webhook' }).click();
    const add = page.getByRole('dialog', { name: 'Add Webhook' });
    await expect(add.getByRole('textbox', { name: 'Destination' })).toBeVisible();
    await expect(add.getByRole('radio', { name: 'Email' })).toHaveCount(0);
    await add.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: `Deliveries of ${receiver.url}` }).click();
    const log = page.getByRole('grid', { name: 'Deliveries' });
    const row = log.getByRole('row').filter({ hasText: 'Message received' });
    await expect(row).toContainText('200', { timeout: 15_000 });
    await expect(row).toContainText('Delivered');
    await row.click();
    const details = page.getByRole('dialog', { name: 'Delivery' });
    await expect(details).toContainText('Do you open on Sundays?');
    await expect(details).toContainText('thanks');
  } finally {
    await receiver.close();
  }
});
