import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useAuth } from 'react-oidc-context';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { errorMessage } from '../../api/client';
import type { SignInState } from '../../auth/userManager';
import { ErrorAlert } from '../../components/ErrorAlert';
import type { PageProps } from '../../app/pageProps';
import { useResendVerification } from './resendVerification';

/** /resendverification: the address is not verified yet; send the link again (signing in first if needed). */
export const ResendVerificationPage = ({ title }: PageProps) => {
  const auth = useAuth();
  const [params] = useSearchParams();
  const { resend, sent } = useResendVerification();
  const expired = params.get('error') === 'expired';

  const onResend = (): void => {
    if (!auth.isAuthenticated) {
      const state: SignInState = { returnTo: '/resendverification' };
      void auth.signinRedirect({ state });
      return;
    }
    resend.mutate();
  };

  return (
    <Box sx={{ maxWidth: 560, mx: 'auto', py: 6 }}>
      <Stack spacing={2}>
        <Typography variant="h5" component="h1">
          {title}
        </Typography>
        {expired && (
          <Alert severity="warning">That verification link has expired or was already used. Send yourself a new one.</Alert>
        )}
        <Typography>
          Your account is pending verification. Please click the link in the email we sent you, or send the email again.
        </Typography>
        {sent && <Alert severity="success">Verification email has been sent</Alert>}
        {resend.isError && <ErrorAlert message={errorMessage(resend.error)} />}
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <Button variant="contained" onClick={onResend} loading={resend.isPending}>
            Resend Email
          </Button>
          <Link component={RouterLink} to="/login">
            Login
          </Link>
        </Stack>
      </Stack>
    </Box>
  );
};
