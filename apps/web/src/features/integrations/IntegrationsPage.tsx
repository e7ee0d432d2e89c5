import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import type { PageProps } from '../../app/pageProps';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSession } from '../../session/sessionContext';
import { statusChip } from './integrationStatus';
import { useIntegrations } from './queries';

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
