import type { Contact } from '@parley/shared';
import { errorMessage } from '../../api/client';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { RemoveDialog } from '../../components/RemoveDialog';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSnackbar } from '../../components/snackbarContext';
import { useBlockContact, useRemoveContact } from './contactsQueries';

interface ConfirmContactProps {
  accountId: string;
  contact: Contact;
  /** How the contact is named (its name, else its number). */
  name: string;
  /** After the change was made (the notice is shown already). */
  onDone: () => void;
  onCancel: () => void;
}

/** Block asks first: it cannot be undone here; only the contact's START lifts it. */
export const BlockContactConfirm = ({ accountId, contact, name, onDone, onCancel }: ConfirmContactProps) => {
  const snackbar = useSnackbar();
  const block = useBlockContact(accountId);
  return (
    <ConfirmDialog
      title="Block Contact"
      message={`Block ${name}? No messages will be sent to them until they send START. This cannot be undone here.`}
      confirmLabel="Block"
      pending={block.isPending}
      error={block.isError ? <ErrorAlert message={errorMessage(block.error)} /> : undefined}
      onConfirm={() => {
        block.mutate(contact.id, {
          onSuccess: () => {
            snackbar.show(`${name} blocked`);
            onDone();
          },
        });
      }}
      onCancel={onCancel}
    />
  );
};

/** Remove asks first. */
export const RemoveContactConfirm = ({ accountId, contact, name, onDone, onCancel }: ConfirmContactProps) => {
  const snackbar = useSnackbar();
  const remove = useRemoveContact(accountId);
  return (
    <RemoveDialog
      title="Remove Contact"
      message={`Remove ${name}? This cannot be undone.`}
      removal={remove}
      onConfirm={() => {
        remove.mutate(contact.id, {
          onSuccess: () => {
            snackbar.show(`${name} removed`);
            onDone();
          },
        });
      }}
      onCancel={onCancel}
    />
  );
};
