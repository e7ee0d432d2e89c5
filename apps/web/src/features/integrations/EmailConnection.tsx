import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Integration } from '@parley/shared';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useConnect } from './queries';

/** Turning Email on, and its addresses: the token address and the form that texts a number. */
export const EmailConnection = ({ accountId, integration, canManage }: { accountId: string; integration: Integration; canManage: boolean }) => {
  const connect = useConnect(accountId, 'email');
  const address = integration.connection?.address;
  const [token, domain] = address?.split('@') ?? [];
  return (
    <Stack spacing={1.5}>
      {connect.isError && <ErrorAlert message={errorMessage(connect.error)} />}
      {address === undefined ? (
        <>
          <Typography variant="body2">Mail sent to the account&apos;s address is texted to a number; the contact&apos;s reply comes back by mail.</Typography>
          {canManage && (
            <Button variant="contained" disabled={connect.isPending} onClick={() => { connect.mutate({}); }} sx={{ alignSelf: 'flex-start' }}>
              Enable Email
            </Button>
          )}
        </>
      ) : (
        <>
          <Typography variant="h2">Addresses</Typography>
          <Typography variant="body2">
            The account&apos;s address: <strong aria-label="Account address">{address}</strong>
          </Typography>
          <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
            To text a number, write to its digits with the country code before the address: <strong>14155550100.{token}@{domain}</strong>. Mail to the account&apos;s address takes the number from a subject that is a phone number.
          </Typography>
          {canManage && (
            <Button variant="outlined" disabled={connect.isPending} onClick={() => { connect.mutate({}); }} sx={{ alignSelf: 'flex-start' }}>
              New address
            </Button>
          )}
        </>
      )}
    </Stack>
  );
};
