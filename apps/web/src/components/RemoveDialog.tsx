import type { ReactNode } from 'react';
import { errorMessage } from '../api/client';
import { ConfirmDialog } from './ConfirmDialog';
import { ErrorAlert } from './ErrorAlert';

interface RemoveDialogProps {
  title: string;
  message: ReactNode;
  /** The removal's state: Remove spins while it runs, and a failure shows under the message. */
  removal: { isPending: boolean; isError: boolean; error: unknown };
  onConfirm: () => void;
  onCancel: () => void;
}

/** Asks before removing a record, and says why the removal failed. */
export const RemoveDialog = ({ title, message, removal, onConfirm, onCancel }: RemoveDialogProps) => (
  <ConfirmDialog
    title={title}
    message={message}
    confirmLabel="Remove"
    pending={removal.isPending}
    error={removal.isError ? <ErrorAlert message={errorMessage(removal.error)} /> : undefined}
    onConfirm={onConfirm}
    onCancel={onCancel}
  />
);
