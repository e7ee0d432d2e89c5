import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useEffect, useState, type ReactNode } from 'react';
import { AuthProvider, useAuth } from 'react-oidc-context';
import type { User } from 'oidc-client-ts';
import { ApiClientContext } from '../api/apiContext';
import { createApiClient } from '../api/client';
import { useConfig } from '../app/configContext';
import { canonicalUrl } from './canonicalUrl';
import { createUserManager, LOGOUT_PATH, signInReturnTo } from './userManager';

const redirectToLogout = (): void => {
  if (window.location.pathname !== LOGOUT_PATH) window.location.assign(LOGOUT_PATH);
};

export const LoadingScreen = () => (
  <Box sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
    <Typography role="status">Loading...</Typography>
  </Box>
);

/** 'Loading...' while the identity provider loads, then the app. */
const WhileLoading = ({ children }: { children: ReactNode }) => {
  const auth = useAuth();
  return auth.isLoading ? <LoadingScreen /> : children;
};

/**
 * Signs in against the issuer of the server's configuration, and gives the pages an API client that
 * sends the signed-in user's access token.
 */
export const AuthGate = ({ children, onSignedIn }: { children: ReactNode; onSignedIn: (returnTo: string) => void }) => {
  const config = useConfig();
  // The development server proxies to the API on another port; there the address is left alone.
  const moveTo = import.meta.env.DEV ? null : canonicalUrl(config.publicUrl, window.location);
  useEffect(() => {
    if (moveTo !== null) window.location.replace(moveTo);
  }, [moveTo]);
  const [userManager] = useState(() => createUserManager(config.auth));
  const [apiClient] = useState(() =>
    createApiClient({
      getToken: async () => (await userManager.getUser())?.access_token,
      onUnauthorized: redirectToLogout,
    }),
  );
  const signedIn = (user: User | undefined): void => {
    onSignedIn(signInReturnTo(user?.state));
  };
  if (moveTo !== null) return <LoadingScreen />;
  return (
    <AuthProvider userManager={userManager} onSigninCallback={signedIn}>
      <ApiClientContext value={apiClient}>
        <WhileLoading>{children}</WhileLoading>
      </ApiClientContext>
    </AuthProvider>
  );
};
