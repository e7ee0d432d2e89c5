/** Keys the app keeps in the browser; sign-out clears every one of them. */
export const storageKeys = {
  account: 'parley.account',
  profile: 'parley.profile',
  redirectTo: 'parley.redirectTo',
} as const;

/** The prefix oidc-client-ts gives the signed-in user and its pending sign-in states. */
const OIDC_PREFIX = 'oidc.';

export function clearLocalState(storage: Storage = window.localStorage): void {
  const doomed: string[] = [];
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i);
    if (key !== null && (Object.values(storageKeys).includes(key as never) || key.startsWith(OIDC_PREFIX))) {
      doomed.push(key);
    }
  }
  for (const key of doomed) storage.removeItem(key);
}
