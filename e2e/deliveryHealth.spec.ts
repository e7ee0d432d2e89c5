import { createdId, signInToFreshAccount } from './browserApi.js';
import { expect, test } from './fixtures.js';

test("delivery health: an administrator's top bar shows the last 24 hours' texts from their real statuses", async ({ page }) => {
  const api = await signInToFreshAccount(page, 'Health Clinic', '/contacts');
  await page.goto('/contacts');
  const quiet = page.getByRole('button', { name: 'Delivery health: No texts sent in the last 24 hours' });
  await expect(quiet).toBeVisible();

  // A text through the simulated network, confirmed outside the recipient's hours whenever the test runs.
  const made = await page.request.post(`/v1/accounts/${api.accountId}/contacts`, {
    headers: api.headers,
    data: { firstName: 'Hal', mobile: { number: `+1415555${String(4000 + Math.floor(Math.random() * 1000))}`, country: 'US' } },
  });
  expect(made.status(), await made.text()).toBe(201);
  const contactId = await createdId(made);
  const sent = await page.request.post(`/v1/accounts/${api.accountId}/messages`, {
    headers: api.headers,
    data: { contacts: [contactId], template: 'Your cleaning is tomorrow at 9', sendNow: true },
  });
  expect(sent.status(), await sent.text()).toBeLessThan(300);
  await expect
    .poll(async () => {
      const answer = await page.request.get(`/v1/accounts/${api.accountId}/reports/deliveryhealth`, { headers: api.headers });
      return ((await answer.json()) as { data: { delivered: number } }).data.delivered;
    })
    .toBe(1);

  await page.reload();
  await page.getByRole('button', { name: 'Delivery health: Delivery is healthy' }).click();
  const panel = page.getByRole('dialog', { name: 'Delivery health' });
  await expect(panel).toContainText('1 text sent to 1 contact');
  await expect(panel).toContainText('100% delivered, 0% with errors');
});
