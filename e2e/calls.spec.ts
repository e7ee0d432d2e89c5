import { signInToFreshAccount } from './browserApi.js';
import { expect, test } from './fixtures.js';
import { shownInUs } from './phoneText.js';

/*
 * Click-to-call on the simulator (docs/calls.md): Call in a contact's row rings the user's own virtual phone
 * (their profile's mobile) and the contact's; the contact answers and hangs up on the simulator page, and the
 * call's line is in the conversation.
 */

const userMobile = '+14155552671';
const live = { timeout: 15_000 };

test('Call on a contact shows the call on both virtual phones and its line in the conversation', async ({ page }) => {
  test.setTimeout(120_000);
  const api = await signInToFreshAccount(page, 'Call Clinic', '/contacts');
  const mobile = `+1415555${String(3000 + Math.floor(Math.random() * 6000))}`;
  const contact = await page.request.post(`/v1/accounts/${api.accountId}/contacts`, {
    headers: api.headers,
    data: { firstName: 'Cora', lastName: 'Caller', mobile: { number: mobile, country: 'US' } },
  });
  expect(contact.status(), await contact.text()).toBe(201);

  await page.goto('/contacts');
  await page.getByRole('button', { name: 'Actions for Cora Caller' }).click();
  await page.getByRole('menuitem', { name: 'Call' }).click();
  await expect(page.getByText('Calling your phone…')).toBeVisible();

  await page.goto('/simulator');
  const own = page.getByRole('region', { name: shownInUs(userMobile) });
  await expect(own.getByText(`Parley is connecting you to ${mobile}`)).toBeVisible(live);
  const theirs = page.getByRole('region', { name: shownInUs(mobile) });
  await expect(theirs.getByText('Ringing')).toBeVisible(live);
  await theirs.getByRole('button', { name: 'Answer' }).click();
  await expect(theirs.getByRole('button', { name: 'Hang up' })).toBeVisible(live);
  await theirs.getByRole('button', { name: 'Hang up' }).click();
  await expect(theirs.getByText(/^Call ended/)).toBeVisible(live);
  await expect(own.getByText(/^Call ended/)).toBeVisible(live);

  await page.goto('/conversations');
  await page.getByRole('grid').getByRole('row').filter({ hasText: 'Cora Caller' }).getByRole('link').first().click();
  const log = page.getByRole('log', { name: 'Messages' });
  await expect(log.getByTestId('call')).toContainText('Outgoing call answered', live);
  await expect(page.getByRole('button', { name: 'Call' })).toBeEnabled();
});
