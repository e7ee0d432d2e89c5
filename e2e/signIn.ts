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

/**
 * The browser storage of the shared user's first sign-in in this worker: the signed-in user oidc-client-ts
 * keeps (its tokens) and the chosen account. Later tests of that user start from it instead of going through
 * the issuer's pages again (3 to 7 s each). The issuer's session cookie is not carried over, so a test that
 * signs out ends only its own session; such a test asks for a sign-in of its own (`fresh`).
 */
let signedInStorage: [string, string][] | null = null;

const OIDC_USER_PREFIX = 'oidc.user:';
const ACCOUNT_KEY = 'parley.account';

/** Puts the stored entries in before the app's first script runs, on the page's first load only. */
async function seedStorage(page: Page, entries: [string, string][]): Promise<void> {
  await page.addInitScript((seed: [string, string][]) => {
    // Once per tab and only in the top frame: a later sign-out, reload or the issuer's frames keep what they find.
    if (window.top !== window || window.sessionStorage.getItem('e2e.seeded') !== null) return;
    window.sessionStorage.setItem('e2e.seeded', '1');
    for (const [key, value] of seed) window.localStorage.setItem(key, value);
  }, entries);
}

/**
 * Signs in from a protected page and lands back on it, past the first-login checks. The shared user
 * (the defaults) is signed in through the issuer's pages once per worker; `fresh` asks for that every time.
 */
export async function signIn(
  page: Page,
  path = '/',
  user: TestUser = e2eUser,
  account: string | null = e2eAccountName,
  options: { fresh?: boolean } = {},
): Promise<void> {
  const target = path.split('?')[0] ?? path;
  const shared = user === e2eUser && account === e2eAccountName && options.fresh !== true;
  if (shared && signedInStorage !== null) {
    await seedStorage(page, signedInStorage);
    await page.goto(path);
    await passFirstLogin(page, account, target);
    return;
  }
  await page.goto(path);
  await submitSignIn(page, user);
  await passFirstLogin(page, account, target);
  if (shared) {
    signedInStorage = await page.evaluate(
      ([userPrefix, accountKey]) =>
        Object.entries(window.localStorage).filter(([key]) => key.startsWith(userPrefix) || key === accountKey),
      [OIDC_USER_PREFIX, ACCOUNT_KEY] as const,
    );
  }
}
