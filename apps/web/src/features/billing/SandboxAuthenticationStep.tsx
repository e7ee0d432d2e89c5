import LockOutlined from '@mui/icons-material/LockOutlined';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

interface SandboxAuthenticationStepProps {
  /** What is being authenticated, in a few words: 'saving this card', 'this plan change'. */
  purpose: string;
  pending: boolean;
  onAnswer: (approve: boolean) => void;
}

/**
 * The sandbox's authentication page (3-D Secure), as a card issuer's would be: the card holder completes or
 * fails it (POST /v1/billing/sandbox/authenticate). No bank is asked; Stripe shows its issuer's page instead.
 */
export const SandboxAuthenticationStep = ({ purpose, pending, onAnswer }: SandboxAuthenticationStepProps) => (
  <Paper variant="outlined" role="region" aria-label="Card authentication" sx={{ p: 2 }}>
    <Stack spacing={1.5}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <LockOutlined color="primary" />
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
          Authentication required
        </Typography>
      </Stack>
      <Typography variant="body2">
        The card&apos;s bank asks the card holder to confirm {purpose} (3-D Secure). This is the sandbox&apos;s test page: no bank
        is asked and no money moves.
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
        <Button
          variant="contained"
          loading={pending}
          onClick={() => {
            onAnswer(true);
          }}
        >
          Complete authentication
        </Button>
        <Button
          color="error"
          disabled={pending}
          onClick={() => {
            onAnswer(false);
          }}
        >
          Fail authentication
        </Button>
      </Stack>
    </Stack>
  </Paper>
);
