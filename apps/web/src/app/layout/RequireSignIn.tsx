import { Outlet } from 'react-router';

/**
 * Routes behind sign-in render through here. Sign-in does not exist yet, so everyone passes; the
 * identity provider and the account check will decide here.
 */
export const RequireSignIn = () => <Outlet />;
