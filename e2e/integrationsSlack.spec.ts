import { signInToFreshAccount } from './browserApi.js';
import { expect, test } from './fixtures.js';

/*
 * The Slack integration page, end to end, against the local Slack the global setup runs: "Add to Slack"
 * through the peer's consent page, the workspace shown as connected, then Disconnect (the token revoked at
 * the peer, the account's Slack channel removed).
 */

test('an administrator adds Parley to Slack from the integration page and disconnects it', async ({ page }) => {
  test.setTimeout(120_000);
  await signInToFreshAccount(page, 'Slack Integration');
  await page.goto('/integrations/slack');
  await expect(page.getByLabel('Status')).toHaveText('Not connected');

  await page.getByRole('button', { name: 'Add to Slack' }).click();
  await page.getByRole('link', { name: 'Allow' }).click();
  await expect(page).toHaveURL(/\/notifications\/slack\?connected=1$/);

  await page.goto('/integrations/slack');
  await expect(page.getByLabel('Status')).toHaveText('Connected');
  await expect(page.getByLabel('Slack workspace')).toHaveText('Acme Support: 1 notification channel');
  await page.getByRole('button', { name: 'Disconnect' }).click();
  await expect(page.getByLabel('Status')).toHaveText('Not connected');
  await page.goto('/notifications/slack');
  await expect(page.getByRole('button', { name: 'Add to Slack' })).toBeVisible();
});
