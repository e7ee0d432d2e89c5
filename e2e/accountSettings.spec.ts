import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures.js';
import { e2eColleague, e2eOwner, e2eOwnerAccountName } from './globalSetup.js';
import { mailsTo, openSettings } from './settingsDialog.js';
import { signIn, submitSignIn } from './signIn.js';

// These tests work on an account of their own ('Tidewater Books'), so the other specs keep 'Harbor
// Dental' as they expect it; the last one closes it.

const signInAsOwner = (page: Page): Promise<void> => signIn(page, '/', e2eOwner, e2eOwnerAccountName);

async function usersTab(page: Page): Promise<Locator> {
  const settings = await openSettings(page);
  await settings.getByRole('tab', { name: 'Users' }).click();
  await expect(settings.getByRole('table', { name: 'Users' })).toBeVisible();
  return settings;
}

/** What the token endpoint answers an API client asking for a token with this secret. */
async function tokenFor(page: Page, clientId: string, secret: string): Promise<{ status: number; accessToken?: string }> {
  const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64');
  const answer = await page.request.post('/oidc/token', {
    headers: { authorization: `Basic ${basic}` },
    form: { grant_type: 'client_credentials' },
  });
  const body = (await answer.json()) as { access_token?: string };
  return { status: answer.status(), ...(body.access_token === undefined ? {} : { accessToken: body.access_token }) };
}

test('renewing the API secret shows a new one once, and the old one no longer gets a token', async ({ page }) => {
  await signInAsOwner(page);
  const settings = await openSettings(page);
  const secret = settings.getByRole('textbox', { name: 'Secret' });
  const onlyOnce = settings.getByText('This secret is shown only once.');
  // The way to the API reference for whoever wires the credentials into a script.
  await expect(settings.getByRole('link', { name: 'Developers' })).toHaveAttribute('href', '/docs');
  await settings.getByRole('button', { name: 'Request Credentials' }).click();
  await expect(onlyOnce).toBeVisible();
  const first = await secret.inputValue();
  const clientId = await settings.getByRole('textbox', { name: 'Client Id' }).inputValue();
  const accountId = await settings.getByRole('textbox', { name: 'Account Id' }).inputValue();
  await settings.getByRole('button', { name: 'Done' }).click();
  await expect(secret).toHaveValue(`••••••••${first.slice(-4)}`);
  expect((await tokenFor(page, clientId, first)).status).toBe(200);

  await settings.getByRole('button', { name: 'Renew Secret' }).click();
  await expect(onlyOnce).toBeVisible();
  const second = await secret.inputValue();
  expect(second).toMatch(/^[^•]{48}$/);
  expect(second.slice(-4)).not.toBe(first.slice(-4));
  await expect(settings.getByRole('textbox', { name: 'Client Id' })).toHaveValue(clientId);
  await settings.getByRole('button', { name: 'Done' }).click();
  await expect(secret).toHaveValue(`••••••••${second.slice(-4)}`);

  // Closed and opened again, the dialog shows the stored (renewed) secret's last four.
  await settings.getByRole('button', { name: 'Close', exact: true }).click();
  const reopened = await openSettings(page);
  await expect(reopened.getByRole('textbox', { name: 'Secret' })).toHaveValue(`••••••••${second.slice(-4)}`);

  const refused = await tokenFor(page, clientId, first);
  expect(refused.status).toBe(401);
  const granted = await tokenFor(page, clientId, second);
  expect(granted.status).toBe(200);
  const users = await page.request.get(`/v1/accounts/${accountId}/users`, {
    headers: { authorization: `Bearer ${granted.accessToken ?? ''}` },
  });
  expect(users.status()).toBe(200);
});

test("an administrator adds a Parley user, changes the user's role and removes the user", async ({ page }) => {
  await signInAsOwner(page);
  let settings = await usersTab(page);
  await settings.getByRole('button', { name: 'Add User' }).click();
  const add = page.getByRole('dialog', { name: 'Add User' });
  await add.getByLabel('First Name').fill('Cole');
  await add.getByLabel('Last Name').fill('League');
  await add.getByLabel('Email').fill(e2eColleague.email);
  await add.getByRole('combobox', { name: 'Role' }).click();
  await page.getByRole('option', { name: 'Sender' }).click();
  await add.getByRole('button', { name: 'Add' }).click();
  await expect(add).toBeHidden();
  // A verified Parley user joins at once: active, with no invitation to resend.
  let row = settings.getByRole('row').filter({ hasText: e2eColleague.email });
  await expect(row).toContainText('Active');
  await expect(row).toContainText('Sender');
  await expect(row.getByRole('button', { name: /^Resend invitation/ })).toHaveCount(0);

  await row.getByRole('button', { name: `Edit ${e2eColleague.email}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit User' });
  await expect(edit.getByLabel('Email')).toBeDisabled();
  await edit.getByRole('combobox', { name: 'Role' }).click();
  await page.getByRole('option', { name: 'Campaign Manager' }).click();
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(row).toContainText('Campaign Manager');

  // The change is the server's, not only the page's.
  await page.reload();
  settings = await usersTab(page);
  row = settings.getByRole('row').filter({ hasText: e2eColleague.email });
  await expect(row).toContainText('Campaign Manager');

  await row.getByRole('button', { name: `Remove ${e2eColleague.email}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove User' });
  await expect(confirm).toContainText('They keep their Parley user.');
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText('User removed')).toBeVisible();
  await expect(row).toHaveCount(0);
  await page.reload();
  settings = await usersTab(page);
  await expect(settings.getByRole('row').filter({ hasText: e2eOwner.email })).toContainText('Administrator');
  await expect(settings.getByRole('row').filter({ hasText: e2eColleague.email })).toHaveCount(0);
});

test('an administrator sends an open invitation again, at most once a minute', async ({ page }) => {
  const email = 'nora.pending@example.test';
  await signInAsOwner(page);
  const settings = await usersTab(page);
  await settings.getByRole('button', { name: 'Add User' }).click();
  const add = page.getByRole('dialog', { name: 'Add User' });
  await add.getByLabel('First Name').fill('Nora');
  await add.getByLabel('Last Name').fill('Pending');
  await add.getByLabel('Email').fill(email);
  await add.getByRole('combobox', { name: 'Role' }).click();
  await page.getByRole('option', { name: 'Read Only' }).click();
  await add.getByRole('button', { name: 'Add' }).click();
  await expect(add).toBeHidden();
  const row = settings.getByRole('row').filter({ hasText: email });
  await expect(row).toContainText('Invited');
  expect(await mailsTo(page, email)).toHaveLength(1);
  // Members have nothing to resend.
  await expect(settings.getByRole('row').filter({ hasText: e2eOwner.email }).getByRole('button', { name: /^Resend/ })).toHaveCount(0);

  const resend = row.getByRole('button', { name: `Resend invitation to ${email}` });
  await resend.click();
  // Notices show one at a time: this one may wait behind the one about the invitation (5 s).
  await expect(page.getByText(`Invitation sent again to ${email}`)).toBeVisible({ timeout: 10_000 });
  const mails = await mailsTo(page, email);
  expect(mails).toHaveLength(2);
  expect(mails[0]?.subject).toBe(`You are invited to ${e2eOwnerAccountName} on Parley`);
  expect(mails[0]?.text).toContain('Tess Owner has invited you');

  await resend.click();
  // The refusal waits behind the previous notice (5 s).
  await expect(page.getByText('This invitation was sent less than a minute ago. Wait a minute and try again.')).toBeVisible({
    timeout: 10_000,
  });
  expect(await mailsTo(page, email)).toHaveLength(2);
  await expect(row).toContainText('Invited');
});

test('an account option toggled in the settings is still set after a reload', async ({ page }) => {
  await signInAsOwner(page);
  let settings = await openSettings(page);
  let option = settings.getByRole('switch', { name: 'Universal MMS' });
  const before = await option.isChecked();
  const saved = page.waitForResponse((r) => r.url().endsWith('/options') && r.request().method() === 'PUT');
  await option.click();
  expect((await saved).status()).toBe(200);
  await expect(option).toBeChecked({ checked: !before });
  await expect(option).toBeEnabled();

  await page.reload();
  settings = await openSettings(page);
  option = settings.getByRole('switch', { name: 'Universal MMS' });
  await expect(option).toBeChecked({ checked: !before });
  // The other option was left alone.
  await expect(settings.getByRole('switch', { name: 'Validate phone number type' })).toBeVisible();
});

test('closing the account needs feedback, signs the administrator out and takes the account away', async ({ page }) => {
  // It signs out: a sign-in of its own, as every test that signs out has.
  await signIn(page, '/', e2eOwner, e2eOwnerAccountName, { fresh: true });
  const settings = await openSettings(page);
  await settings.getByRole('button', { name: 'Close Account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Close Account' });
  await dialog.getByRole('button', { name: 'Close Account' }).click();
  await expect(dialog.getByText('Required')).toBeVisible();
  await dialog.getByLabel('Feedback').fill('We are moving our texting to the head office.');
  await dialog.getByRole('button', { name: 'Close Account' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();

  // Signed in again, the owner has no account left: the app offers to create one.
  await submitSignIn(page, e2eOwner);
  const create = page.getByRole('dialog', { name: 'Create Account' });
  await expect(create).toBeVisible();
  await create.getByRole('button', { name: 'Not now' }).click();
  await expect(page.getByRole('button', { name: `Select ${e2eOwnerAccountName}` })).toHaveCount(0);
});
