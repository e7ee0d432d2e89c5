import { localPath, type ClientConfig } from '@parley/shared';
import { UserManager, WebStorageStateStore } from 'oidc-client-ts';

export const CALLBACK_PATH = '/callback';
export const LOGOUT_PATH = '/logout';

/** Where the browser goes back to after signing in. */
export interface SignInState {
  returnTo: string;
}

const isSignInState = (value: unknown): value is SignInState =>
  typeof value === 'object' && value !== null && typeof (value as { returnTo?: unknown }).returnTo === 'string';

/**
 * The page to go to after signing in: the state's `returnTo` when it is a path of this site, else home.
 * The state is written from the address bar (a link to `https://parley.example//evil.example/x` has the
 * path `//evil.example/x`) and read back from storage, so it is checked where it is used (localPath).
 */
export const signInReturnTo = (state: unknown): string => (isSignInState(state) ? localPath(state.returnTo) : null) ?? '/';

/**
 * Authorization code with PKCE against the issuer the server names (embedded or external). The user is
 * kept in localStorage so a second tab and the installed app are signed in too.
 */
export function createUserManager(auth: ClientConfig['auth'], origin: string = window.location.origin): UserManager {
  return new UserManager({
    authority: auth.issuer,
    client_id: auth.clientId,
    redirect_uri: `${origin}${CALLBACK_PATH}`,
    post_logout_redirect_uri: `${origin}${LOGOUT_PATH}`,
    response_type: 'code',
    scope: auth.scopes,
    automaticSilentRenew: true,
    userStore: new WebStorageStateStore({ store: window.localStorage }),
    stateStore: new WebStorageStateStore({ store: window.localStorage }),
  });
}
