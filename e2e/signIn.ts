import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { dirname, join } from 'node:path';
import type { Page } from '@playwright/test';
import { e2eBaseUrl, expect } from './fixtures.js';
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
 * What a person's first sign-in through the issuer's pages left in the browser, kept for the rest of the run:
 * the signed-in user oidc-client-ts keeps (its tokens) and, per account name, the account chosen. A later test
 * of that person on that server starts from it instead of going through the issuer's pages again (3 to 7 s
 * each). One file per person and server in the run's folder (E2E_SIGNED_IN_DIR, from the global setup), so a
 * worker started again after a failure finds it too. The issuer's cookie is not carried over, so a test
 * that signs out signs out only itself; such a test asks for a sign-in of its own (`fresh`).
 */
interface StoredSignIn {
  user: [string, string][];
  accounts: Record<string, string>;
}

const OIDC_USER_PREFIX = 'oidc.user:';
const ACCOUNT_KEY = 'parley.account';

function storedSignInFile(origin: string, email: string): string | null {
  const folder = process.env.E2E_SIGNED_IN_DIR;
  if (folder === undefined) return null;
  return join(folder, `${createHash('sha256').update(`${origin} ${email}`).digest('hex').slice(0, 16)}.json`);
}

function readStoredSignIn(file: string | null): StoredSignIn | null {
  if (file === null || !fs.existsSync(file)) return null;
  return JSON.parse(fs.readFileSync(file, 'utf8')) as StoredSignIn;
}

function writeStoredSignIn(file: string | null, stored: StoredSignIn): void {
  if (file === null) return;
  fs.mkdirSync(dirname(file), { recursive: true });
  // Written whole, then renamed: a reader never sees half a file.
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(stored));
  fs.renameSync(`${file}.tmp`, file);
}

/** Puts the stored entries in before the app's first script runs, on the page's first load only. */
export async function seedStorage(page: Page, entries: [string, string][]): Promise<void> {
  await page.addInitScript((seed: [string, string][]) => {
    // Once per tab and only in the top frame: a later sign-out, reload or the issuer's frames keep what they find.
    if (window.top !== window || window.sessionStorage.getItem('e2e.seeded') !== null) return;
    window.sessionStorage.setItem('e2e.seeded', '1');
    for (const [key, value] of seed) window.localStorage.setItem(key, value);
  }, entries);
}

/**
 * The browser storage a person's earlier sign-in in this run left on the global server (the signed-in user
 * oidc-client-ts keeps), or null when the person has not signed in yet.
 */
export function keptSignIn(user: TestUser = e2eUser): [string, string][] | null {
  return readStoredSignIn(storedSignInFile(new URL(e2eBaseUrl()).origin, user.email))?.user ?? null;
}

/**
 * Signs in from a protected page and lands back on it, past the first-login checks. Each person goes through
 * the issuer's pages once per server in a run; `fresh` asks for that every time (and keeps nothing).
 */
export async function signIn(
  page: Page,
  path = '/',
  user: TestUser = e2eUser,
  account: string | null = e2eAccountName,
  options: { fresh?: boolean } = {},
): Promise<void> {
  const target = path.split('?')[0] ?? path;
  // The account to open: kept by its name once chosen (at /accounts the chooser stays, and nothing is chosen).
  const accountName = target === '/accounts' ? null : account;
  const file = options.fresh === true ? null : storedSignInFile(new URL(path, e2eBaseUrl()).origin, user.email);
  const stored = readStoredSignIn(file);
  const accountId = accountName === null ? undefined : stored?.accounts[accountName];
  if (stored !== null) await seedStorage(page, accountId === undefined ? stored.user : [...stored.user, [ACCOUNT_KEY, accountId]]);
  await page.goto(path);
  if (stored === null) await submitSignIn(page, user);
  await passFirstLogin(page, account, target);
  if (file === null || (stored !== null && (accountName === null || accountId !== undefined))) return;
  const [entries, chosen] = await page.evaluate(
    ([userPrefix, accountKey]) =>
      [
        Object.keys(window.localStorage)
          .filter((key) => key.startsWith(userPrefix))
          .map((key): [string, string] => [key, window.localStorage.getItem(key) ?? '']),
        window.localStorage.getItem(accountKey),
      ] as const,
    [OIDC_USER_PREFIX, ACCOUNT_KEY] as const,
  );
  const accounts = { ...stored?.accounts, ...(accountName !== null && chosen !== null ? { [accountName]: chosen } : {}) };
  writeStoredSignIn(file, { user: stored?.user ?? entries, accounts });
}
