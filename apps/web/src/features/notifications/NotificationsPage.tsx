import Typography from '@mui/material/Typography';
import { can, NOTIFICATIONS_EMPTY_STATE } from '@parley/shared';
import type { PageProps } from '../../app/pageProps';
import { useSession } from '../../session/sessionContext';
import { ChannelsSection } from './channels/ChannelsSection';
import { NotificationsTable, type TableTexts } from './NotificationsTable';

export { DELIVERIES_PARAM } from './NotificationsTable';

const texts: TableTexts = {
  intro: "Where the account's events go besides this app: an e-mail address or a webhook URL, each with the events it wants.",
  add: 'Add Notification',
  empty: NOTIFICATIONS_EMPTY_STATE,
};

/**
 * /notifications: the account's e-mail and webhook notifications (docs/notifications.md), oldest first.
 * Add, edit and remove follow 'notifications.write'; everyone may open a notification's deliveries.
 */
export const NotificationsPage = ({ title }: PageProps) => {
  const { account } = useSession();
  if (account === null) return null;
  return (
    <>
      <Typography variant="h1" gutterBottom>
        {title}
      </Typography>
      <ChannelsSection accountId={account.id} />
      <NotificationsTable accountId={account.id} canWrite={can(account.user.role, 'notifications.write')} texts={texts} />
    </>
  );
};
