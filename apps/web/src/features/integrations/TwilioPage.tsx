import Button from '@mui/material/Button';
import { useState } from 'react';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { can, type CarrierConnection } from '@parley/shared';
import type { PageProps } from '../../app/pageProps';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSession } from '../../session/sessionContext';
import { TwilioConnectForm } from './TwilioConnectForm';
import { TwilioNumbers } from './TwilioNumbers';
import { useDisconnectTwilio, useTwilioConnections } from './twilioQueries';

/** One Twilio connection: its account, its numbers to import, and Disconnect. */
const ConnectionView = ({ accountId, connection, canManage }: { accountId: string; connection: CarrierConnection; canManage: boolean }) => {
  const disconnect = useDisconnectTwilio(accountId);
  const sid = connection.carrier === 'twilio' ? connection.settings.accountSid : '';
  return (
    <Stack spacing={2} component="section" aria-label={`Twilio connection ${connection.name}`}>
      <Typography variant="body2" color="text.secondary" aria-label="Twilio account">
        {connection.name}: Twilio account {sid}, {String(connection.phoneNumbers)} number{connection.phoneNumbers === 1 ? '' : 's'} in Parley
      </Typography>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
        Numbers of the Twilio account
      </Typography>
      <TwilioNumbers accountId={accountId} connectionId={connection.id} canManage={canManage} />
      {disconnect.isError && <ErrorAlert message={errorMessage(disconnect.error)} />}
      {canManage && (
        <Button color="error" variant="outlined" disabled={disconnect.isPending} onClick={() => { disconnect.mutate(connection.id); }} sx={{ alignSelf: 'flex-start' }}>
          Disconnect
        </Button>
      )}
      {canManage && (
        <Typography variant="body2" color="text.secondary">
          Disconnecting releases this connection&apos;s numbers in Parley (their messages stay) and clears their SMS webhook in Twilio.
        </Typography>
      )}
    </Stack>
  );
};

/** Each of the account's Twilio connections, oldest first, and a form to add one more. */
const Connections = ({ accountId, connections }: { accountId: string; connections: CarrierConnection[] }) => {
  const [adding, setAdding] = useState(false);
  const stop = () => {
    setAdding(false);
  };
  return (
    <>
      {connections.map((connection) => (
        <ConnectionView key={connection.id} accountId={accountId} connection={connection} canManage />
      ))}
      {adding ? (
        <TwilioConnectForm accountId={accountId} onConnected={stop} onCancel={stop} />
      ) : (
        <Button variant="outlined" onClick={() => { setAdding(true); }} sx={{ alignSelf: 'flex-start' }}>
          Connect another Twilio account
        </Button>
      )}
    </>
  );
};

/**
 * /integrations/twilio: the account's own Twilio accounts (carrier connections, docs/integrations.md,
 * "Twilio"): connect with the SID and auth token, import each Twilio account's numbers, disconnect.
 */
export const TwilioPage = ({ title }: PageProps) => {
  const { account } = useSession();
  const query = useTwilioConnections(account?.id ?? '');
  if (account === null) return null;
  const canManage = can(account.user.role, 'account.manage');
  const connections = query.data ?? [];
  return (
    <>
      <Typography variant="h1" gutterBottom>
        {title}
      </Typography>
      <Stack spacing={3} sx={{ maxWidth: 820 }}>
        {!canManage && <Typography color="text.secondary">Only administrators can see and change the account&apos;s Twilio connection.</Typography>}
        {canManage && query.isError && <ErrorAlert message={errorMessage(query.error)} onRetry={() => void query.refetch()} />}
        {canManage && query.data !== undefined && (
          <Typography variant="body1" aria-label="Status">
            {connections.length === 0 ? 'Not connected' : 'Connected'}
          </Typography>
        )}
        {canManage && query.data !== undefined && connections.length === 0 && <TwilioConnectForm accountId={account.id} />}
        {canManage && connections.length > 0 && <Connections accountId={account.id} connections={connections} />}
      </Stack>
    </>
  );
};
