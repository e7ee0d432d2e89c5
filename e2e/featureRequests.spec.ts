import { expect, test } from './fixtures.js';
import { signIn } from './signIn.js';

/*
 * The feature-request board: 'Loading...' until the sign-on token arrives (held here until the page has
 * shown it), then the built-in board: a new request, a vote (and back), a comment.
 */

test('the board waits for its sign-on token, then takes a request, a vote and a comment', async ({ page }) => {
  test.setTimeout(60_000);
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/v1/featurerequests/token', async (route) => {
    await held;
    await route.continue();
  });
  await signIn(page, '/featurerequests');
  await expect(page.getByRole('heading', { name: 'Feature Requests' })).toBeVisible();
  await expect(page.getByRole('status')).toHaveText('Loading...');
  release();
  await expect(page.getByRole('button', { name: 'New Request' })).toBeVisible();

  const title = `Dark mode ${Date.now().toString(36)}`;
  await page.getByRole('button', { name: 'New Request' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Feature Request' });
  await dialog.getByRole('button', { name: 'Post' }).click();
  await expect(dialog.getByText('Required')).toHaveCount(2);
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByLabel('Details').fill('A dark theme for evening shifts');
  await dialog.getByRole('button', { name: 'Post' }).click();
  await expect(dialog).toBeHidden();

  await page.getByLabel('Search').fill(title);
  const card = page.getByRole('listitem', { name: title });
  await expect(card).toBeVisible();
  await expect(page.getByRole('listitem')).toHaveCount(1);
  await card.getByRole('button', { name: `Vote for ${title}` }).click();
  const voted = card.getByRole('button', { name: `Remove your vote from ${title}` });
  await expect(voted).toHaveText('1');
  await voted.click();
  await expect(card.getByRole('button', { name: `Vote for ${title}` })).toHaveText('0');
  await card.getByRole('button', { name: `Vote for ${title}` }).click();
  await expect(voted).toHaveText('1');

  await card.getByText('A dark theme for evening shifts').click();
  const detail = page.getByRole('dialog', { name: title });
  await expect(detail.getByText('No comments yet')).toBeVisible();
  // Not an operator: no status menu.
  await expect(detail.getByLabel('Status')).toHaveCount(0);
  await detail.getByRole('textbox', { name: 'Comment' }).fill('Yes please, my eyes thank you');
  await detail.getByRole('button', { name: 'Comment', exact: true }).click();
  await expect(detail.getByRole('list', { name: 'Comments' }).getByRole('listitem')).toHaveText([/Yes please, my eyes thank you/]);
  await detail.getByRole('button', { name: 'Close' }).click();
  await expect(card).toContainText('1 comment');
});
