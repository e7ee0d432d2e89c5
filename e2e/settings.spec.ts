import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.js';
import { e2eAccountName, e2eHelpCenterUrl } from './globalSetup.js';
import { mailsTo, openSettings } from './settingsDialog.js';
import { signIn, submitSignIn } from './signIn.js';

const invitee = { firstName: 'Rhea', lastName: 'Okafor', email: 'rhea.okafor@example.test', password: 'Quiet-Harbor-Reader-58' };

async function mailLink(page: Page, to: string, pattern: RegExp): Promise<string> {
  const link = (await mailsTo(page, to)).map((mail) => pattern.exec(mail.text)?.[0]).find((found) => found !== undefined);
  expect(link, `a mail to ${to} with a link like ${String(pattern)}`).toBeDefined();
  return link ?? '';
}

test('an administrator requests API credentials and invites a read-only user, who joins and sees the read-only menu', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signIn(page, '/', undefined, undefined, { fresh: true });
  const topBar = page.getByRole('banner');
  await expect(topBar.getByTestId('account-name')).toHaveText(e2eAccountName);
  await expect(topBar.getByRole('button', { name: /^Upgrade \(\d+ days? left\)$/ })).toBeVisible();
  // Upgrade lands on Change Plan, the plans compared (changePlan.spec.ts goes through a change).
  await topBar.getByRole('button', { name: /^Upgrade/ }).click();
  const changePlan = page.getByRole('dialog', { name: 'Change Plan' });
  await expect(changePlan.getByRole('grid', { name: 'Plans' }).getByRole('button', { name: 'Choose Starter' })).toBeVisible();
  await changePlan.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(changePlan).toBeHidden();
  // The Plan tab says what the trial is, what it lacks and how to leave it.
  const upgrade = await openSettings(page);
  await expect(upgrade.getByRole('tab', { name: 'Plan' })).toHaveAttribute('aria-selected', 'true');
  const trial = upgrade.getByRole('region', { name: 'Trial plan' });
  await expect(trial).toContainText(/A trial lasts 15 days.* \d+ days? left\./);
  await expect(trial).toContainText('Auto responders');
  await expect(trial).toContainText('Choose a paid plan with Change Plan below');
  await expect(upgrade.getByRole('button', { name: 'Change Plan' })).toBeVisible();
  await upgrade.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(upgrade).toBeHidden();
  const quickActions = page.getByRole('region', { name: 'Quick actions' }).last();
  for (const action of ['Send Message', 'Create Contact', 'Create Campaign']) {
    await expect(quickActions.getByRole('link', { name: action })).toBeVisible();
  }

  // Plan tab: the API secret is whole once, masked afterwards.
  let settings = await openSettings(page);
  await expect(settings.getByTestId('plan-account-name')).toHaveText(e2eAccountName);
  await expect(settings.getByTestId('plan-balance')).toHaveText(/^\$\d+\.\d{4}/);
  await settings.getByRole('button', { name: 'Request Credentials' }).click();
  await expect(settings.getByText('This secret is shown only once.')).toBeVisible();
  const secret = await settings.getByRole('textbox', { name: 'Secret' }).inputValue();
  expect(secret).toMatch(/^[^•]{48}$/);
  await expect(settings.getByRole('textbox', { name: 'Client Id' })).toHaveValue(/^pk_[0-9a-f]{24}$/);
  await settings.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(settings).toBeHidden();
  settings = await openSettings(page);
  await expect(settings.getByRole('textbox', { name: 'Secret' })).toHaveValue(`••••••••${secret.slice(-4)}`);
  await expect(settings.getByRole('button', { name: 'Request Credentials' })).toBeHidden();
  await expect(settings.getByRole('button', { name: 'Renew Secret' })).toBeVisible();

  // Users tab: the dialog's messages, then the invitation.
  await settings.getByRole('tab', { name: 'Users' }).click();
  await settings.getByRole('button', { name: 'Add User' }).click();
  const userDialog = page.getByRole('dialog', { name: 'Add User' });
  await userDialog.getByRole('button', { name: 'Add' }).click();
  await expect(userDialog.getByText('Required')).toHaveCount(4);
  await userDialog.getByLabel('First Name').fill(invitee.firstName);
  await userDialog.getByLabel('Last Name').fill(invitee.lastName);
  await userDialog.getByLabel('Email').fill('not-an-address');
  await userDialog.getByRole('combobox', { name: 'Role' }).click();
  await page.getByRole('option', { name: 'Read Only' }).click();
  await userDialog.getByRole('button', { name: 'Add' }).click();
  await expect(userDialog.getByText('Invalid email address')).toBeVisible();
  await userDialog.getByLabel('Email').fill(invitee.email);
  await userDialog.getByRole('button', { name: 'Add' }).click();
  await expect(userDialog).toBeHidden();
  const row = settings.getByRole('row').filter({ hasText: invitee.email });
  await expect(row).toContainText('Read Only');
  await expect(row).toContainText('Invited');
  await settings.getByRole('tab', { name: 'Invoices' }).click();
  await expect(settings.getByText('No Invoices Exist')).toBeVisible();
  await settings.getByRole('button', { name: 'Close', exact: true }).click();

  await topBar.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();

  // The invitee signs up through the mailed link, which fills the form in.
  await page.goto(await mailLink(page, invitee.email, /https?:\/\/\S+\/signup\?\S+/));
  await expect(page.getByLabel('Email')).toHaveValue(invitee.email);
  await expect(page.getByLabel('First Name')).toHaveValue(invitee.firstName);
  await page.getByLabel('Mobile').fill('415 555 0188');
  await page.locator('input[name="password"]').fill(invitee.password);
  await page.getByLabel('I agree to the terms and conditions').check();
  await page.getByLabel('I agree to receive communication about my account').check();
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await submitSignIn(page, invitee);
  // Not verified yet, so not a member yet: the invitation waits for the verification, and the page says so
  // (with the banner's resend action) instead of asking for a new account.
  const waiting = page.getByRole('region', { name: 'Invitation waiting' });
  await expect(waiting.getByText(`Verify your e-mail: your invitation to ${e2eAccountName} is waiting`)).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Create Account' })).toHaveCount(0);
  const mailsBefore = (await mailsTo(page, invitee.email)).length;
  await waiting.getByRole('button', { name: 'Resend Verification Email' }).click();
  await expect(waiting.getByRole('button', { name: 'Sent' })).toBeVisible();
  await expect.poll(async () => (await mailsTo(page, invitee.email)).length).toBe(mailsBefore + 1);

  await page.goto(await mailLink(page, invitee.email, /https?:\/\/\S+\/v1\/verify\?token=[\w-]+/));
  await expect(page.getByText('Your account has now been verified.', { exact: false })).toBeVisible();
  await page.waitForURL((url) => url.pathname !== '/verified', { timeout: 10_000 });
  // Their one account is chosen for them: no chooser.
  await page.goto('/');
  await expect(page.getByTestId('account-name')).toHaveText(e2eAccountName);

  // Read Only: no Admin menu, no settings icon, no Upgrade, no quick actions.
  const menu = page.getByRole('navigation', { name: 'Main menu' }).last();
  await expect(menu.getByRole('button', { name: 'Contacts' }).or(menu.getByRole('link', { name: 'Contacts' }))).toBeVisible();
  await expect(menu.getByText('Admin')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Account settings/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Upgrade|^Expired$/ })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Quick actions' })).toHaveCount(0);

  // The account menu: the help centre in a new tab, and the profile, which anyone may edit.
  await page.getByRole('button', { name: 'Account menu' }).click();
  const help = page.getByRole('menuitem', { name: 'Help Centre' });
  await expect(help).toHaveAttribute('href', e2eHelpCenterUrl);
  await expect(help).toHaveAttribute('target', '_blank');
  await page.getByRole('menuitem', { name: 'Profile' }).click();
  const profile = page.getByRole('dialog', { name: 'Profile' });
  await expect(profile.getByLabel('Email')).toHaveValue(invitee.email);
  await expect(profile.getByLabel('First Name')).toHaveValue(invitee.firstName);
  await profile.getByLabel('First Name').fill('');
  await profile.getByRole('button', { name: 'Save' }).click();
  await expect(profile.getByLabel('First Name')).toHaveAccessibleDescription('Required');
  await profile.getByLabel('First Name').fill('Rhea-Mae');
  await profile.getByLabel('Mobile').fill('415 555 0199');
  await profile.getByRole('button', { name: 'Save' }).click();
  await expect(profile).toBeHidden();
  await expect(page.getByText('Profile saved')).toBeVisible();
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Profile' }).click();
  await expect(profile.getByLabel('First Name')).toHaveValue('Rhea-Mae');
  await expect(profile.getByLabel('Mobile')).toHaveValue('+14155550199');
  await profile.getByRole('button', { name: 'Cancel' }).click();
  await expect(profile).toBeHidden();

  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();

  // Signed in again: the only account is chosen again, without the chooser.
  await submitSignIn(page, invitee);
  await expect(page.getByTestId('account-name')).toHaveText(e2eAccountName);
  await expect(page.getByRole('main').getByRole('heading', { name: 'Accounts' })).toHaveCount(0);
});
