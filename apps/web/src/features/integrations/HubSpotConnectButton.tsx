import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useOAuthStart } from './queries';

/** Connect: HubSpot's page asks the user to approve Parley for a portal, then sends them back here. */
export const HubSpotConnectButton = ({ accountId }: { accountId: string }) => {
  const start = useOAuthStart(accountId, 'hubspot');
  return (
    <Stack spacing={2} sx={{ maxWidth: 480 }}>
      {start.isError && <ErrorAlert message={errorMessage(start.error)} />}
      <Typography variant="body2">HubSpot asks you to choose the HubSpot account and approve Parley, then brings you back here.</Typography>
      <Button variant="contained" disabled={start.isPending || start.isSuccess} onClick={() => { start.mutate(); }} sx={{ alignSelf: 'flex-start' }}>
        Connect
      </Button>
    </Stack>
  );
};
