import { useEffect } from 'react';
import { useAuth } from 'react-oidc-context';
import { Outlet, useLocation } from 'react-router';
import { LoadingScreen } from '../../auth/AuthGate';
import type { SignInState } from '../../auth/userManager';
import { ErrorAlert } from '../../components/ErrorAlert';

/** Routes behind sign-in: a visitor who is not signed in goes to the identity provider and comes back here. */
export const RequireSignIn = () => {
  const auth = useAuth();
  const location = useLocation();
  const returnTo = `${location.pathname}${location.search}`;
  const mustSignIn = !auth.isLoading && !auth.isAuthenticated && auth.activeNavigator === undefined && !auth.error;

  useEffect(() => {
    if (!mustSignIn) return;
    const state: SignInState = { returnTo };
    void auth.signinRedirect({ state });
  }, [auth, mustSignIn, returnTo]);

  if (auth.error) return <ErrorAlert message={auth.error.message} />;
  if (!auth.isAuthenticated) return <LoadingScreen />;
  return <Outlet />;
};
