import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useAuth } from 'react-oidc-context';
import { clearLocalState } from '../../auth/localState';
import { LOGOUT_PATH } from '../../auth/userManager';

/**
 * /logout: 'Logging Out'. Clears the stored profile, account and all state; ends the issuer's session
 * (which sends the browser back here), then goes to the sign-in page.
 */
export const LogoutPage = () => {
  const auth = useAuth();
  const queryClient = useQueryClient();
  const started = useRef(false);

  useEffect(() => {
    if (auth.isLoading || started.current) return;
    started.current = true;
    const idTokenHint = auth.user?.id_token;
    queryClient.clear();
    clearLocalState();
    void auth.removeUser().then(() => {
      if (idTokenHint === undefined) {
        window.location.replace('/login');
        return;
      }
      return auth.signoutRedirect({
        id_token_hint: idTokenHint,
        post_logout_redirect_uri: `${window.location.origin}${LOGOUT_PATH}`,
      });
    });
  }, [auth, queryClient]);

  return (
    <Box sx={{ py: 8, textAlign: 'center' }}>
      <Typography variant="h5" component="p" role="status">
        Logging Out
      </Typography>
    </Box>
  );
};
