import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { errorMessage } from '../api/client';
import { useResendVerification } from '../pages/verification/resendVerification';

export const UNVERIFIED_TEXT =
  'Your email is unverified. You will not be able to send messages or perform any chargable actions until your account is verified.';

/** The top-of-page notice while the signed-in user's address is unverified (spec §2). */
export const UnverifiedBanner = () => {
  const { resend, sent } = useResendVerification();
  return (
    <Alert
      severity="warning"
      sx={{ borderRadius: 0 }}
      action={
        <Button
          color="inherit"
          size="small"
          disabled={sent}
          loading={resend.isPending}
          onClick={() => {
            resend.mutate();
          }}
        >
          {sent ? 'Sent' : 'Resend Verification Email'}
        </Button>
      }
    >
      {UNVERIFIED_TEXT}
      {resend.isError && ` ${errorMessage(resend.error)}`}
    </Alert>
  );
};
