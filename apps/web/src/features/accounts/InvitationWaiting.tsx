import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { invitationWaitingText, type ProfileInvitation } from '@parley/shared';
import { UnverifiedBanner } from '../identity';

interface InvitationWaitingProps {
  invitations: readonly ProfileInvitation[];
  /** Reads the profile and accounts again (after the address was verified elsewhere). */
  onRefresh: () => void;
  refreshing: boolean;
  /** The user wants an account of their own after all: the Create Account questionnaire. */
  onCreateOwn: () => void;
  onLogout: () => void;
}

/**
 * Instead of the Create Account questionnaire, for a user with no account yet whose address is unverified and
 * who has been invited: the invitation becomes a membership once the address is verified (docs/identity.md).
 */
export const InvitationWaiting = ({ invitations, onRefresh, refreshing, onCreateOwn, onLogout }: InvitationWaitingProps) => (
  <Box sx={{ p: { xs: 2, sm: 4 }, maxWidth: 640, mx: 'auto' }}>
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }} role="region" aria-label="Invitation waiting">
      <Stack spacing={2}>
        <Typography variant="h5" component="h1">
          Verify your e-mail
        </Typography>
        <UnverifiedBanner square={false} message={invitationWaitingText(invitations.map((i) => i.accountName))} />
        <Typography>
          Open the link in the verification e-mail we sent you. Once your address is verified you join the account you
          were invited to; then choose Refresh.
        </Typography>
        <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
          <Button variant="contained" onClick={onRefresh} loading={refreshing}>
            Refresh
          </Button>
          <Button onClick={onCreateOwn}>Create my own account</Button>
          <Box sx={{ flex: 1 }} />
          <Button color="inherit" onClick={onLogout}>
            Logout
          </Button>
        </Stack>
      </Stack>
    </Paper>
  </Box>
);
