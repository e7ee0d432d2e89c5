import { localPath } from '@parley/shared';
import { storageKeys } from '../auth/localState';

/** The chosen account is kept in the browser (selecting an account stores it locally). */
export function selectedAccountId(storage: Storage = window.localStorage): string | null {
  return storage.getItem(storageKeys.account);
}

/** The account chooser's paths: protected pages that work without a chosen account. */
export const chooserPaths: readonly string[] = ['/accounts', '/chooseaccount'];

/**
 * The account to choose without asking: a user with exactly one account, and no choice stored that still
 * holds, gets that account (after every sign-in, which forgets the choice). With several, the stored choice
 * stands, and without one the user chooses.
 */
export function automaticAccount(stored: string | null, memberOf: readonly string[]): string | null {
  if (stored !== null && memberOf.includes(stored)) return null;
  return memberOf.length === 1 ? (memberOf[0] ?? null) : null;
}

export function selectAccount(id: string, storage: Storage = window.localStorage): void {
  storage.setItem(storageKeys.account, id);
}

export function forgetAccount(storage: Storage = window.localStorage): void {
  storage.removeItem(storageKeys.account);
}

/**
 * A protected page opened without a chosen account is remembered, to return to after choosing. Only a
 * path of this site is kept, and only such a path is handed back (localPath): whatever the storage holds,
 * the app never navigates off the site with it.
 */
export function saveRedirect(path: string, storage: Storage = window.localStorage): void {
  const safe = localPath(path);
  if (safe === null) storage.removeItem(storageKeys.redirectTo);
  else storage.setItem(storageKeys.redirectTo, safe);
}

export function takeRedirect(storage: Storage = window.localStorage): string | null {
  const path = peekRedirect(storage);
  storage.removeItem(storageKeys.redirectTo);
  return path;
}

export function peekRedirect(storage: Storage = window.localStorage): string | null {
  return localPath(storage.getItem(storageKeys.redirectTo));
}

/**
 * The account a saved redirect names (`?accountId=`), when the user belongs to it: such a link
 * selects that account by itself.
 */
export function accountFromRedirect(redirect: string | null, memberOf: readonly string[]): string | null {
  if (redirect === null) return null;
  const query = redirect.includes('?') ? redirect.slice(redirect.indexOf('?') + 1) : '';
  const id = new URLSearchParams(query).get('accountId');
  return id !== null && memberOf.includes(id) ? id : null;
}
