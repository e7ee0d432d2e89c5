import type { Page } from '@playwright/test';
import { expect } from './fixtures.js';
import { e2eAccountName, e2eUser } from './globalSetup.js';

export interface TestUser {
  email: string;
  password: string;
}

/** Fills the issuer's sign-in form, as a person would. */
export async function submitSignIn(page: Page, user: TestUser = e2eUser): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Answers the first-login dialogs (terms, profile) when they appear, so a test starts from a signed-in page. */
async function passFirstLogin(page: Page, account: string | null, target: string): Promise<void> {
  const terms = page.getByRole('dialog', { name: 'Terms and Conditions' });
  const profile = page.getByRole('dialog', { name: 'Profile' });
  const chooser = page.getByRole('main').getByRole('heading', { name: 'Accounts' });
  // Any page's title: the page has rendered (the frame alone shows before the page's chunk loads).
  const ready = page.getByRole('main').getByRole('heading').first();
  for (;;) {
    await expect(terms.or(profile).or(chooser).or(ready).first()).toBeVisible();
    if (await terms.isVisible()) {
      await terms.getByRole('button', { name: 'Yes' }).click();
      await expect(terms).toBeHidden();
    } else if (await profile.isVisible()) {
      await profile.getByLabel('Mobile').fill('415 555 2671');
      await profile.getByRole('button', { name: 'Save' }).click();
      await expect(profile).toBeHidden();
    } else if (account !== null && target !== '/accounts' && (await chooser.isVisible())) {
      // No account chosen yet: choose it; the chooser sends the browser back to the page asked for.
      await page.getByRole('button', { name: `Select ${account}` }).click();
      await expect(chooser).toBeHidden();
    } else {
      return;
    }
  }
}

/** Signs in from a protected page and lands back on it, past the first-login checks. */
export async function signIn(
  page: Page,
  path = '/',
  user: TestUser = e2eUser,
  account: string | null = e2eAccountName,
): Promise<void> {
  await page.goto(path);
  await submitSignIn(page, user);
  await passFirstLogin(page, account, path.split('?')[0] ?? path);
}
