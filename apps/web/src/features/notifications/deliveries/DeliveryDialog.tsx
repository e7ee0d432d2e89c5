import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';
import { errorMessage } from '../../../api/client';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { useSnackbar } from '../../../components/snackbarContext';
import { useIsPhone } from '../../../components/useIsPhone';
import { useDelivery, useResendDelivery } from '../queries';
import { DeliveryDetails } from './DeliveryDetails';

interface DeliveryDialogProps {
  accountId: string;
  notificationId: string;
  deliveryId: string;
  canWrite: boolean;
  onClose: () => void;
}

/** A delivery opened from the log; writers may send its event again (the same event id, so receivers can de-duplicate). */
export const DeliveryDialog = ({ accountId, notificationId, deliveryId, canWrite, onClose }: DeliveryDialogProps) => {
  const titleId = useId();
  const phone = useIsPhone();
  const snackbar = useSnackbar();
  const delivery = useDelivery(accountId, notificationId, deliveryId);
  const resend = useResendDelivery(accountId, notificationId);
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="md" fullScreen={phone}>
      <DialogTitle id={titleId}>Delivery</DialogTitle>
      <DialogContent>
        {delivery.isPending && <CircularProgress aria-label="Loading the delivery" />}
        {delivery.isError && <ErrorAlert message={errorMessage(delivery.error)} onRetry={() => void delivery.refetch()} />}
        {delivery.data !== undefined && <DeliveryDetails delivery={delivery.data} />}
        {resend.isError && <ErrorAlert message={errorMessage(resend.error)} />}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
        {canWrite && (
          <Button
            variant="contained"
            loading={resend.isPending}
            disabled={delivery.data === undefined}
            onClick={() => {
              resend.mutate(deliveryId, { onSuccess: () => { snackbar.show('Delivery sent again'); } });
            }}
          >
            Resend
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
};
