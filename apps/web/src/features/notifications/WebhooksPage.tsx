import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { can } from '@parley/shared';
import { Link as RouterLink } from 'react-router';
import type { PageProps } from '../../app/pageProps';
import { useSession } from '../../session/sessionContext';
import { NotificationsTable, type TableTexts } from './NotificationsTable';

const texts: TableTexts = {
  intro: "The account's webhook endpoints: each event it wants is POSTed to it as JSON, signed with its secret.",
  add: 'Add Webhook',
  empty: 'No Webhooks Exist',
};

/**
 * /integrations/webhooks: the webhook notifications seen from the integrations side (docs/notifications.md):
 * the same endpoints as /notifications and the public API's /webhooks, with secrets and delivery logs.
 */
export const WebhooksPage = ({ title }: PageProps) => {
  const { account } = useSession();
  if (account === null) return null;
  return (
    <>
      <Typography variant="h1" gutterBottom>
        {title}
      </Typography>
      <Stack spacing={1} sx={{ mb: 2, maxWidth: 820 }}>
        <Typography variant="body2">
          Each delivery carries the headers <code>webhook-id</code>, <code>webhook-timestamp</code> and <code>webhook-signature</code> (the Standard Webhooks
          scheme): check the signature with the endpoint&apos;s secret, and use the id to drop a delivery you already had. A failed delivery is retried for three
          days; an endpoint answering 410 Gone is turned off.
        </Typography>
        <Typography variant="body2" color="text.secondary">
          The same endpoints are listed with the e-mail notifications on <Link component={RouterLink} to="/notifications">Notifications</Link>.
        </Typography>
      </Stack>
      <NotificationsTable accountId={account.id} canWrite={can(account.user.role, 'notifications.write')} texts={texts} only="webhook" />
    </>
  );
};
