import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useZapierSubscriptions } from './zapierQueries';

/** The Zaps listening to the account: the webhook subscriptions whose URL is Zapier's hooks host. */
export const ZapierSubscriptions = ({ accountId }: { accountId: string }) => {
  const query = useZapierSubscriptions(accountId);
  if (query.isError) return <ErrorAlert message={errorMessage(query.error)} onRetry={() => void query.refetch()} />;
  if (query.data === undefined) return <Typography color="text.secondary">Loading...</Typography>;
  if (query.data.length === 0) return <Typography color="text.secondary">No Zap is subscribed yet: turn on a Zap with a Parley trigger.</Typography>;
  return (
    <Table size="small" aria-label="Zapier subscriptions">
      <TableHead>
        <TableRow>
          <TableCell>Events</TableCell>
          <TableCell>Zapier URL</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {query.data.map((subscription) => (
          <TableRow key={subscription.url}>
            <TableCell>{subscription.eventTypes.join(', ')}</TableCell>
            <TableCell sx={{ wordBreak: 'break-all' }}>{subscription.url}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
};
