import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import type { ReactNode } from 'react';

interface DialogFooterProps {
  /** The primary action's label. */
  label: ReactNode;
  onCancel: () => void;
  cancelLabel?: string;
  /** The primary action is running: it shows a spinner. */
  pending?: boolean;
  disabled?: boolean;
  /** Cancel waits while the action runs (a payment, a file on its way). */
  cancelDisabled?: boolean;
  color?: 'primary' | 'error';
  /** Without it the primary action submits the dialog's form. */
  onAction?: () => void;
  /** Shown first, at the left of the buttons (a count, a note). */
  start?: ReactNode;
}

/** A dialog's footer: Cancel, then its one primary action. */
export const DialogFooter = ({
  label,
  onCancel,
  cancelLabel = 'Cancel',
  pending = false,
  disabled,
  cancelDisabled,
  color,
  onAction,
  start,
}: DialogFooterProps) => (
  <DialogActions>
    {start}
    <Button onClick={onCancel} disabled={cancelDisabled}>
      {cancelLabel}
    </Button>
    <Button
      type={onAction === undefined ? 'submit' : 'button'}
      color={color}
      variant="contained"
      disabled={disabled}
      loading={pending}
      onClick={onAction}
    >
      {label}
    </Button>
  </DialogActions>
);
