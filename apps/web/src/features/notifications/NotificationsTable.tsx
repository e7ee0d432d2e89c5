import type { Notification, NotificationType } from '@parley/shared';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { PageTable } from '../../components/PageTable';
import { RemoveDialog } from '../../components/RemoveDialog';
import { useSnackbar } from '../../components/snackbarContext';
import { useIsPhone } from '../../components/useIsPhone';
import { DeliveriesDialog } from './deliveries/DeliveriesDialog';
import { NotificationDialog } from './NotificationDialog';
import { notificationColumns } from './notificationColumns';
import { useNotifications, useRemoveNotification } from './queries';
import { SecretDialog } from './SecretDialog';
import { useFilterOptions } from './useFilterOptions';

type Editing = { notification: Notification | null } | null;

/** The query parameter naming the notification whose deliveries are open (docs/decisions.md). */
export const DELIVERIES_PARAM = 'deliveries';

/** What the table says: the notifications page's words, or a page that shows one type only. */
export interface TableTexts {
  intro: string;
  add: string;
  empty: string;
}

interface NotificationsTableProps {
  accountId: string;
  canWrite: boolean;
  texts: TableTexts;
  /** Show and add this type only (the Webhooks integration page); both when absent. */
  only?: NotificationType;
}

/**
 * The account's notifications (or those of one type) with add, edit, remove by 'notifications.write' and
 * the deliveries of each for everyone.
 */
export const NotificationsTable = ({ accountId, canWrite, texts, only }: NotificationsTableProps) => {
  const snackbar = useSnackbar();
  const compact = useIsPhone();
  const notifications = useNotifications(accountId, only);
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
        intro={texts.intro}
        add={canWrite ? { label: texts.add, onClick: () => { setEditing({ notification: null }); } } : undefined}
        label="Notifications"
        query={notifications}
        columns={columns}
        emptyLabel={texts.empty}
        autoRowHeight
      />
      {editing !== null && (
        <NotificationDialog
          accountId={accountId}
          notification={editing.notification}
          filterOptions={filterOptions}
          {...(only === undefined ? {} : { onlyType: only })}
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
