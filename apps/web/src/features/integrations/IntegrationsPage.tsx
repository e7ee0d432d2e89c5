import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import type { Integration } from '@parley/shared';
import { Link as RouterLink } from 'react-router';
import type { PageProps } from '../../app/pageProps';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSession } from '../../session/sessionContext';
import { useIntegrations } from './queries';

/** The words and colour of an integration's status. */
export const statusChip = (integration: Integration): { label: string; color: 'success' | 'error' | 'default' } => {
  if (!integration.available) return { label: 'Not available yet', color: 'default' };
  switch (integration.status) {
    case 'connected':
      return { label: 'Connected', color: 'success' };
    case 'error':
      return { label: 'Error', color: 'error' };
    case 'notConnected':
      return { label: 'Not connected', color: 'default' };
  }
};

/** /integrations: every integration of the product with its status, each linking to its page. */
export const IntegrationsPage = ({ title }: PageProps) => {
  const { account } = useSession();
  const query = useIntegrations(account?.id ?? '');
  if (account === null) return null;
  return (
    <>
      <Typography variant="h1" gutterBottom>
        {title}
      </Typography>
      {query.isError && <ErrorAlert message={errorMessage(query.error)} onRetry={() => void query.refetch()} />}
      <List sx={{ maxWidth: 640 }}>
        {(query.data?.data ?? []).map((integration) => {
          const chip = statusChip(integration);
          return (
            <ListItem key={integration.integration} divider secondaryAction={<Chip size="small" label={chip.label} color={chip.color} />}>
              <ListItemText
                primary={
                  <Link component={RouterLink} to={`/integrations/${integration.integration}`}>
                    {integration.name}
                  </Link>
                }
              />
            </ListItem>
          );
        })}
      </List>
    </>
  );
};
