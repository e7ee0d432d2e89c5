import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { can, SLACK_NOT_CONFIGURED_MESSAGE } from '@parley/shared';
import { Link as RouterLink } from 'react-router';
import type { PageProps } from '../../app/pageProps';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useAddToSlack } from '../notifications';
import { useSession } from '../../session/sessionContext';
import { useDisconnectSlack, useSlackWorkspaces } from './slackQueries';

/**
 * /integrations/slack: the Slack workspace the Slack notification channels post to (docs/integrations.md,
 * "Slack"): connect with "Add to Slack", see the workspaces, disconnect (administrators).
 */
export const SlackPage = ({ title }: PageProps) => {
  const { account } = useSession();
  const query = useSlackWorkspaces(account?.id ?? '');
  const addToSlack = useAddToSlack(account?.id ?? '');
  const disconnect = useDisconnectSlack(account?.id ?? '');
  if (account === null) return null;
  const canManage = can(account.user.role, 'integrations.manage');
  const workspaces = query.data?.workspaces ?? [];
  return (
    <>
      <Typography variant="h1" gutterBottom>
        {title}
      </Typography>
      <Stack spacing={3} sx={{ maxWidth: 720 }}>
        {query.isError && <ErrorAlert message={errorMessage(query.error)} onRetry={() => void query.refetch()} />}
        {query.data !== undefined && (
          <Typography variant="body1" aria-label="Status">
            {workspaces.length === 0 ? 'Not connected' : 'Connected'}
          </Typography>
        )}
        {query.data?.configured === false && <Typography color="text.secondary">{SLACK_NOT_CONFIGURED_MESSAGE}</Typography>}
        {workspaces.map((w) => (
          <Typography key={w.teamId} variant="body2" color="text.secondary" aria-label="Slack workspace">
            {w.teamName}: {String(w.channels)} notification channel{w.channels === 1 ? '' : 's'}
          </Typography>
        ))}
        <Typography variant="body2">
          Parley posts notifications of new messages to a Slack channel, and replies in a post&apos;s thread are texted back. Each person chooses their channel on{' '}
          <Link component={RouterLink} to="/notifications/slack">
            Slack Notifications
          </Link>
          .
        </Typography>
        {addToSlack.isError && <ErrorAlert message={errorMessage(addToSlack.error)} />}
        {query.data?.configured === true && (
          <Button variant="contained" disabled={addToSlack.isPending} onClick={() => { addToSlack.mutate(); }} sx={{ alignSelf: 'flex-start' }}>
            Add to Slack
          </Button>
        )}
        {disconnect.isError && <ErrorAlert message={errorMessage(disconnect.error)} />}
        {canManage && workspaces.length > 0 && (
          <Button color="error" variant="outlined" disabled={disconnect.isPending} onClick={() => { disconnect.mutate(); }} sx={{ alignSelf: 'flex-start' }}>
            Disconnect
          </Button>
        )}
        {canManage && workspaces.length > 0 && (
          <Typography variant="body2" color="text.secondary">
            Disconnecting removes Parley from the workspace and every Slack notification channel of this account.
          </Typography>
        )}
      </Stack>
    </>
  );
};
