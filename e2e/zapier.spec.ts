import { signInToFreshAccount } from './browserApi.js';
import { expect, test } from './fixtures.js';

/*
 * /integrations/zapier: an administrator reads how to connect the Zapier app, requests the API credentials it
 * needs, and sees the Zaps listening once Zapier subscribes through the public API (the app's own call),
 * the account's other webhooks left out.
 */

const ZAP_URL = 'https://hooks.zapier.com/hooks/standard/1/abc123';

test('an administrator gets credentials for the Zapier app and sees the Zaps subscribed', async ({ page }) => {
  test.setTimeout(90_000);
  const api = await signInToFreshAccount(page, 'Zap Works');
  await page.goto('/integrations/zapier');
  await expect(page.getByRole('heading', { name: 'Zapier', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Status')).toHaveText('Available: no Zap is subscribed yet');
  await expect(page.getByText('No Zap is subscribed yet: turn on a Zap with a Parley trigger.')).toBeVisible();

  await page.getByRole('button', { name: 'Request Credentials' }).click();
  await expect(page.getByRole('textbox', { name: 'Account Id' })).toHaveValue(api.accountId);
  await expect(page.getByRole('textbox', { name: 'Client Id' })).not.toHaveValue('');

  for (const url of [ZAP_URL, 'https://hooks.parley.test/elsewhere']) {
    const answer = await page.request.post(`/v1/accounts/${api.accountId}/webhooks`, { headers: api.headers, data: { url, eventTypes: ['message-received'] } });
    expect(answer.status(), await answer.text()).toBe(200);
  }
  await page.reload();
  await expect(page.getByLabel('Status')).toHaveText('Connected: a Zap is subscribed');
  const zaps = page.getByRole('table', { name: 'Zapier subscriptions' });
  await expect(zaps.getByRole('row')).toHaveCount(2);
  await expect(zaps.getByRole('row').nth(1)).toContainText(`message-received${ZAP_URL}`);
});
