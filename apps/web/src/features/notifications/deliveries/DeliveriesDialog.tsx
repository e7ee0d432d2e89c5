import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { DataGrid, type GridPaginationModel, type GridRowParams } from '@mui/x-data-grid';
import { WEBHOOK_SECRET_OVERLAP_HOURS, type Notification, type NotificationDelivery, type NotificationDeliveryStatus } from '@parley/shared';
import { useId, useMemo, useState } from 'react';
import { errorMessage } from '../../../api/client';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { TABLE_PAGE_SIZES } from '../../../components/PageTable';
import { useSnackbar } from '../../../components/snackbarContext';
import { useIsPhone } from '../../../components/useIsPhone';
import { notificationState } from '../notificationStatus';
import { DELIVERIES_REFRESH_MS, useDeliveries, useRotateSecret, useSendTestEvent, type RotatedSecret } from '../queries';
import { SecretDialog } from '../SecretDialog';
import { compactDeliveryVisibility, deliveryColumns } from './deliveryColumns';
import { DeliveryDialog } from './DeliveryDialog';
import { DeliveryToolbar } from './DeliveryToolbar';

interface DeliveriesDialogProps {
  accountId: string;
  notification: Notification;
  canWrite: boolean;
  onClose: () => void;
}

/**
 * A notification's delivery log (docs/decisions.md): newest first, asked again every few seconds while open;
 * a row opens the delivery with its body and every attempt. Writers send a test event and rotate a webhook's secret.
 */
export const DeliveriesDialog = ({ accountId, notification, canWrite, onClose }: DeliveriesDialogProps) => {
  const titleId = useId();
  const phone = useIsPhone();
  const snackbar = useSnackbar();
  const [status, setStatus] = useState<NotificationDeliveryStatus | null>(null);
  const [pagination, setPagination] = useState<GridPaginationModel>({ page: 0, pageSize: TABLE_PAGE_SIZES[1] ?? 25 });
  const [opened, setOpened] = useState<string | null>(null);
  const [confirmingRotate, setConfirmingRotate] = useState(false);
  const [rotated, setRotated] = useState<RotatedSecret | null>(null);
  const deliveries = useDeliveries(accountId, notification.id, { offset: pagination.page * pagination.pageSize, limit: pagination.pageSize, status });
  const test = useSendTestEvent(accountId, notification.id);
  const rotate = useRotateSecret(accountId, notification.id);
  const state = notificationState(notification);
  const columns = useMemo(() => deliveryColumns(phone), [phone]);

  const sendTest = (): void => {
    test.mutate(undefined, {
      onSuccess: () => { snackbar.show('Test event sent: it shows here in a moment'); },
      onError: (error) => { snackbar.show(errorMessage(error)); },
    });
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="lg" fullScreen={phone}>
      <DialogTitle id={titleId}>Deliveries</DialogTitle>
      <DialogContent>
        <Typography sx={{ mb: 1, wordBreak: 'break-all' }}>{notification.destination}</Typography>
        {state.reason !== null && <Alert severity="error" sx={{ mb: 1.5 }}>Disabled: {state.reason}</Alert>}
        {state.warning !== null && <Alert severity="warning" sx={{ mb: 1.5 }}>{state.warning}</Alert>}
        <DeliveryToolbar
          status={status}
          onStatus={(next) => {
            setStatus(next);
            setPagination((p) => ({ ...p, page: 0 }));
          }}
          onTest={canWrite ? sendTest : undefined}
          testing={test.isPending}
          onRotate={canWrite && notification.type === 'webhook' ? () => { rotate.reset(); setConfirmingRotate(true); } : undefined}
        />
        {deliveries.isError && <ErrorAlert message={errorMessage(deliveries.error)} onRetry={() => void deliveries.refetch()} />}
        <DataGrid<NotificationDelivery>
          aria-label="Deliveries"
          rows={deliveries.data?.data ?? []}
          rowCount={deliveries.data?.pagination.totalCount ?? 0}
          columns={columns}
          loading={deliveries.isPending}
          paginationMode="server"
          paginationModel={pagination}
          onPaginationModelChange={setPagination}
          pageSizeOptions={TABLE_PAGE_SIZES}
          columnVisibilityModel={phone ? compactDeliveryVisibility : {}}
          disableRowSelectionOnClick
          disableColumnFilter
          autoHeight
          onRowClick={(params: GridRowParams<NotificationDelivery>) => { setOpened(params.row.id); }}
          localeText={{ noRowsLabel: status === null ? 'No deliveries yet' : 'No deliveries with this status' }}
          sx={{ '& .MuiDataGrid-row': { cursor: 'pointer' } }}
        />
        <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 1 }}>
          Newest first, updated every {String(DELIVERIES_REFRESH_MS / 1000)} seconds. Open a delivery to see what was sent and answered.
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
      {opened !== null && (
        <DeliveryDialog accountId={accountId} notificationId={notification.id} deliveryId={opened} canWrite={canWrite} onClose={() => { setOpened(null); }} />
      )}
      {confirmingRotate && (
        <ConfirmDialog
          title="Rotate Secret"
          message={`A new signing secret is made and shown once. The current one keeps signing beside it for ${String(WEBHOOK_SECRET_OVERLAP_HOURS)} hours, then stops.`}
          confirmLabel="Rotate"
          pending={rotate.isPending}
          error={rotate.isError ? <ErrorAlert message={errorMessage(rotate.error)} /> : undefined}
          onConfirm={() => {
            rotate.mutate(undefined, {
              onSuccess: (answer) => {
                setConfirmingRotate(false);
                setRotated(answer);
              },
            });
          }}
          onCancel={() => { setConfirmingRotate(false); }}
        />
      )}
      {rotated !== null && <SecretDialog secret={rotated.secret} previousValidUntil={rotated.previousValidUntil} onClose={() => { setRotated(null); }} />}
    </Dialog>
  );
};
