import { useEffect } from 'react';
import { useAuth } from 'react-oidc-context';
import { useNavigate } from 'react-router';
import { LoadingScreen } from '../../auth/AuthGate';
import type { SignInState } from '../../auth/userManager';
import { peekRedirect } from '../../session/selection';

/** /login: the issuer's sign-in form; back to the saved redirect target afterwards. */
export const LoginPage = () => {
  const auth = useAuth();
  const navigate = useNavigate();
  const returnTo = peekRedirect() ?? '/';

  useEffect(() => {
    if (auth.isLoading || auth.activeNavigator !== undefined) return;
    if (auth.isAuthenticated) {
      void navigate(returnTo, { replace: true });
      return;
    }
    const state: SignInState = { returnTo };
    void auth.signinRedirect({ state });
  }, [auth, navigate, returnTo]);

  return <LoadingScreen />;
};
