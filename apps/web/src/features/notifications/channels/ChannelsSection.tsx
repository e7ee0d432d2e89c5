import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { NotificationChannel } from '@parley/shared';
import { Link as RouterLink } from 'react-router';
import { useChannels } from './channelQueries';

const ChannelCard = ({ channel }: { channel: NotificationChannel }) => (
  <Card variant="outlined" sx={{ flex: 1, minWidth: 0 }} data-testid={`channel-${channel.channel}`}>
    <CardContent>
      <Typography variant="h6" component="h3">
        {channel.name}
      </Typography>
      <Typography variant="body2" color="text.secondary" noWrap>
        {!channel.configured ? 'Not configured on this server' : channel.connected ? `Connected${channel.destination === undefined ? '' : `: ${channel.destination}`}` : 'Not connected'}
      </Typography>
    </CardContent>
    <CardActions>
      <Button component={RouterLink} to={`/notifications/${channel.channel}`} disabled={!channel.configured} size="small">
        {channel.connected ? 'Open' : 'Connect'}
      </Button>
    </CardActions>
  </Card>
);

/** /notifications: the user's own channels, installed (connected) first, then available. */
export const ChannelsSection = ({ accountId }: { accountId: string }) => {
  const channels = useChannels(accountId);
  const list = channels.data?.data ?? [];
  const sorted = [...list.filter((c) => c.connected), ...list.filter((c) => !c.connected)];
  return (
    <section aria-labelledby="channels-title">
      <Typography id="channels-title" variant="h2" sx={{ fontSize: '1.25rem', mb: 1 }}>
        My notification channels
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 3 }}>
        {sorted.map((channel) => (
          <ChannelCard key={channel.channel} channel={channel} />
        ))}
      </Stack>
    </section>
  );
};
