import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Snackbar from '@mui/material/Snackbar';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { CHANNEL_NOT_SAVED_MESSAGE, CHANNEL_SAVED_CLOSE_MS, CHANNEL_SAVED_MESSAGE, type NotificationChannel } from '@parley/shared';
import { useState } from 'react';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import type { PageProps } from '../../../app/pageProps';
import { useSession } from '../../../session/sessionContext';
import { ChannelForm } from './ChannelForm';
import { useAddToSlack, useChannel, useDisconnectChannel, useSaveChannel } from './channelQueries';

type Notice = { ok: boolean } | null;

/** /notifications/email, /sms, /slack and /notifications/{channelId}: one of the user's own channels. */
export const ChannelPage = ({ title }: PageProps) => {
  const { account } = useSession();
  const params = useParams();
  const { pathname } = useLocation();
  const channel = params.channelId ?? pathname.split('/').pop() ?? 'email';
  if (account === null) return null;
  return <ChannelView key={channel} accountId={account.id} channel={channel} title={title} />;
};

const ChannelView = ({ accountId, channel, title }: { accountId: string; channel: string; title: string }) => {
  const query = useChannel(accountId, channel);
  const save = useSaveChannel(accountId, channel);
  const disconnect = useDisconnectChannel(accountId, channel);
  const addToSlack = useAddToSlack(accountId);
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const [notice, setNotice] = useState<Notice>(null);
  const record: NotificationChannel | undefined = query.data?.data;
  const slackError = search.get('error');

  const onSave = (body: { groups: { id: string; settings: Record<string, string> }[]; channelId?: string }) => {
    save.mutate(body, { onSuccess: () => { setNotice({ ok: true }); }, onError: () => { setNotice({ ok: false }); } });
  };

  return (
    <>
      <Typography variant="h1" gutterBottom>
        {record === undefined ? title : `${record.name} Notifications`}
      </Typography>
      {slackError !== null && <Alert severity="error" sx={{ mb: 2 }}>{slackError}</Alert>}
      {query.isError && <Alert severity="error">The channel could not be loaded.</Alert>}
      {record !== undefined && (
        <Stack spacing={2} sx={{ maxWidth: 640 }}>
          <Typography variant="body1">
            {record.connected ? `Connected${record.destination === undefined ? '' : `: ${record.destination}`}` : 'Not connected. Choose the groups you want to hear about, then save to connect.'}
          </Typography>
          {record.channel === 'slack' && !record.configured && <Alert severity="info">Slack is not configured on this server.</Alert>}
          {record.channel === 'slack' && record.configured && (
            <Button variant="outlined" onClick={() => { addToSlack.mutate(); }} disabled={addToSlack.isPending} sx={{ alignSelf: 'flex-start' }}>
              {record.connected ? 'Add to another Slack workspace' : 'Add to Slack'}
            </Button>
          )}
          {(record.channel !== 'slack' || record.connected) && (
            <ChannelForm accountId={accountId} record={record} saving={save.isPending} onSave={onSave} />
          )}
          {record.connected && (
            <Button
              color="error"
              onClick={() => { disconnect.mutate(undefined, { onSuccess: () => void navigate('/notifications') }); }}
              disabled={disconnect.isPending}
              sx={{ alignSelf: 'flex-start' }}
            >
              Disconnect
            </Button>
          )}
          {record.connectedUsers.length > 0 && (
            <Typography variant="body2" color="text.secondary">
              Connected users: {record.connectedUsers.map((u) => u.name).join(', ')}
            </Typography>
          )}
        </Stack>
      )}
      <Snackbar open={notice !== null} autoHideDuration={CHANNEL_SAVED_CLOSE_MS} onClose={() => { setNotice(null); }}>
        <Alert severity={notice?.ok === true ? 'success' : 'error'} onClose={() => { setNotice(null); }}>
          {notice?.ok === true ? CHANNEL_SAVED_MESSAGE : CHANNEL_NOT_SAVED_MESSAGE}
        </Alert>
      </Snackbar>
    </>
  );
};
