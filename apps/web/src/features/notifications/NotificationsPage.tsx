import Typography from '@mui/material/Typography';
import { can, NOTIFICATIONS_EMPTY_STATE, type Notification } from '@parley/shared';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { PageProps } from '../../app/pageProps';
import { PageTable } from '../../components/PageTable';
import { RemoveDialog } from '../../components/RemoveDialog';
import { useSnackbar } from '../../components/snackbarContext';
import { useIsPhone } from '../../components/useIsPhone';
import { useSession } from '../../session/sessionContext';
import { DeliveriesDialog } from './deliveries/DeliveriesDialog';
import { NotificationDialog } from './NotificationDialog';
import { notificationColumns } from './notificationColumns';
import { useNotifications, useRemoveNotification } from './queries';
import { ChannelsSection } from './channels/ChannelsSection';
import { SecretDialog } from './SecretDialog';
import { useFilterOptions } from './useFilterOptions';

type Editing = { notification: Notification | null } | null;

/** The query parameter naming the notification whose deliveries are open (docs/decisions.md). */
export const DELIVERIES_PARAM = 'deliveries';

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
      <NotificationsTable accountId={account.id} canWrite={can(account.user.role, 'notifications.write')} />
    </>
  );
};

const NotificationsTable = ({ accountId, canWrite }: { accountId: string; canWrite: boolean }) => {
  const snackbar = useSnackbar();
  const compact = useIsPhone();
  const notifications = useNotifications(accountId);
  const remove = useRemoveNotification(accountId);
  const filterOptions = useFilterOptions(accountId);
  const [editing, setEditing] = useState<Editing>(null);
  const [removing, setRemoving] = useState<Notification | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [params, setParams] = useSearchParams();
  const deliveriesOf = params.get(DELIVERIES_PARAM);
  const showing = notifications.data?.data.find((n) => n.id === deliveriesOf) ?? null;

  const { reset: resetRemove } = remove;
  const { names } = filterOptions;
  const columns = useMemo(
    () =>
      notificationColumns({
        canWrite,
        compact,
        names,
        actions: {
          deliveries: (notification) => { setParams({ [DELIVERIES_PARAM]: notification.id }); },
          edit: (notification) => { setEditing({ notification }); },
          remove: (notification) => {
            resetRemove();
            setRemoving(notification);
          },
        },
      }),
    [canWrite, compact, names, resetRemove, setParams],
  );

  return (
    <>
      <PageTable
        intro="Where the account's events go besides this app: an e-mail address or a webhook URL, each with the events it wants."
        add={canWrite ? { label: 'Add Notification', onClick: () => { setEditing({ notification: null }); } } : undefined}
        label="Notifications"
        query={notifications}
        columns={columns}
        emptyLabel={NOTIFICATIONS_EMPTY_STATE}
        autoRowHeight
      />
      {editing !== null && (
        <NotificationDialog
          accountId={accountId}
          notification={editing.notification}
          filterOptions={filterOptions}
          onClose={() => { setEditing(null); }}
          onCreatedSecret={setSecret}
        />
      )}
      {secret !== null && <SecretDialog secret={secret} onClose={() => { setSecret(null); }} />}
      {showing !== null && (
        <DeliveriesDialog
          accountId={accountId}
          notification={showing}
          canWrite={canWrite}
          onClose={() => { setParams({}, { replace: true }); }}
        />
      )}
      {removing !== null && (
        <RemoveDialog
          title="Remove Notification"
          message={`Remove the notification to ${removing.destination}? No more events go there.`}
          removal={remove}
          onConfirm={() => {
            remove.mutate(removing.id, {
              onSuccess: () => {
                setRemoving(null);
                snackbar.show('Notification removed');
              },
            });
          }}
          onCancel={() => { setRemoving(null); }}
        />
      )}
    </>
  );
};
