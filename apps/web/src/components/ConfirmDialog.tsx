import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId, type ReactNode } from 'react';
import { DialogFooter } from './DialogFooter';

interface ConfirmDialogProps {
  title: string;
  message: ReactNode;
  confirmLabel: string;
  pending?: boolean;
  /** Shown under the message when the action failed. */
  error?: ReactNode;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Asks before an action that cannot be undone. */
export const ConfirmDialog = ({ title, message, confirmLabel, pending = false, error, onConfirm, onCancel }: ConfirmDialogProps) => {
  const titleId = useId();
  return (
    <Dialog open onClose={onCancel} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText>{message}</DialogContentText>
        {error}
      </DialogContent>
      <DialogFooter label={confirmLabel} color="error" onCancel={onCancel} pending={pending} onAction={onConfirm} />
    </Dialog>
  );
};
