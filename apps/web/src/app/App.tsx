import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { ApiClientContext } from '../api/apiContext';
import { createApiClient } from '../api/client';
import { createQueryClient } from '../api/queryClient';
import { SnackbarProvider } from '../components/SnackbarProvider';
import { AuthGate } from '../auth/AuthGate';
import { ConfigGate } from './ConfigGate';
import { routes } from './routes';
import { theme } from './theme';

const logoutPath = '/logout';

const redirectToLogout = (): void => {
  if (window.location.pathname !== logoutPath) window.location.assign(logoutPath);
};

export const App = () => {
  const [queryClient] = useState(createQueryClient);
  const [apiClient] = useState(() => createApiClient({ onUnauthorized: redirectToLogout }));
  const [router] = useState(() => createBrowserRouter(routes));

  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <ApiClientContext value={apiClient}>
        <QueryClientProvider client={queryClient}>
          <SnackbarProvider>
            <ConfigGate>
              <AuthGate
                onSignedIn={(returnTo) => {
                  void router.navigate(returnTo, { replace: true });
                }}
              >
                <RouterProvider router={router} />
              </AuthGate>
            </ConfigGate>
          </SnackbarProvider>
        </QueryClientProvider>
      </ApiClientContext>
    </ThemeProvider>
  );
};
