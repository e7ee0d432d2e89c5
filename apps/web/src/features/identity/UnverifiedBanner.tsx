import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { errorMessage } from '../../api/client';
import { useResendVerification } from './resendVerification';

export const UNVERIFIED_TEXT =
  'Your email is unverified. You will not be able to send messages or perform any chargable actions until your account is verified.';

/**
 * The top-of-page notice while the signed-in user's address is unverified, with the resend action;
 * `message` says something more fitting in its place (an invitation that is waiting).
 */
export const UnverifiedBanner = ({ message = UNVERIFIED_TEXT, square = true }: { message?: string; square?: boolean }) => {
  const { resend, sent } = useResendVerification();
  return (
    <Alert
      severity="warning"
      sx={square ? { borderRadius: 0 } : undefined}
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
      {message}
      {resend.isError && ` ${errorMessage(resend.error)}`}
    </Alert>
  );
};
