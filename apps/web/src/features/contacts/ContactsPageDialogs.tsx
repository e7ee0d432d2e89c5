import type { Contact } from '@parley/shared';
import { Suspense } from 'react';
import { RemoveDialog } from '../../components/RemoveDialog';
import { useSnackbar } from '../../components/snackbarContext';
import { usePhoneDisplay } from '../../session/usePhoneDisplay';
import { AddToListDialog } from '../lists';
import { LazySendMessageDialog } from '../messaging';
import { CheckNumberTypesDialog } from './CheckNumberTypesDialog';
import { BlockContactConfirm, RemoveContactConfirm } from './ContactConfirmations';
import { ContactDialog } from './ContactDialog';
import type { ContactPermissions, ContactRowActionId } from './contactRowActions';
import { useInvalidateContactQueries, useRemoveContacts } from './contactsQueries';
import { ImportContactsDialog } from './import/ImportContactsDialog';
import { REFRESH_AFTER_DELETE_MS } from './timing';

/** The dialog the contacts page shows, if any. */
export type ContactsDialog =
  | { kind: 'edit'; contact: Contact | null }
  | { kind: 'send'; contacts: Contact[] }
  | { kind: 'block' | 'remove'; contact: Contact }
  | { kind: 'addToList' | 'removeMany' | 'checkNumberTypes'; ids: string[] }
  | { kind: 'import' }
  | null;

/** The dialog a row menu's action opens. */
export const rowActionDialog = (contact: Contact, action: Exclude<ContactRowActionId, 'call'>): ContactsDialog =>
  action === 'edit' ? { kind: 'edit', contact } : action === 'sendMessage' ? { kind: 'send', contacts: [contact] } : { kind: action, contact };

interface ContactsPageDialogsProps {
  accountId: string;
  dialog: ContactsDialog;
  onDialog: (dialog: ContactsDialog) => void;
  defaultCountry: string;
  attributeNames: readonly string[];
  permissions: ContactPermissions & { canImport: boolean };
  /** The selected contacts were removed or added to a list: the selection is done with. */
  onSelectionDone: () => void;
}

/** The contacts page's dialogs: the contact, Send Message, Block, Remove (one or the selection), Add to List, Upload. */
export const ContactsPageDialogs = ({ accountId, dialog, onDialog, defaultCountry, attributeNames, permissions, onSelectionDone }: ContactsPageDialogsProps) => {
  const snackbar = useSnackbar();
  const display = usePhoneDisplay();
  const removeMany = useRemoveContacts(accountId);
  const invalidate = useInvalidateContactQueries(accountId);
  const close = () => {
    onDialog(null);
  };

  const removeSelected = (ids: string[]): void => {
    removeMany.mutate(ids, {
      onSuccess: (removed) => {
        close();
        onSelectionDone();
        snackbar.show(`Removed ${String(removed)} ${removed === 1 ? 'contact' : 'contacts'}`);
        // The table refreshes a second after a multi-delete.
        setTimeout(() => {
          void invalidate();
        }, REFRESH_AFTER_DELETE_MS);
      },
    });
  };

  return (
    <>
      {dialog?.kind === 'edit' && (
        <ContactDialog
          accountId={accountId}
          contact={dialog.contact}
          defaultCountry={defaultCountry}
          attributeNames={attributeNames}
          canWrite={permissions.canWrite}
          canBlock={permissions.canBlock}
          onClose={close}
          {...(permissions.canSendMessages
            ? {
                onSendMessage: (contact: Contact) => {
                  onDialog({ kind: 'send', contacts: [contact] });
                },
              }
            : {})}
        />
      )}
      {dialog?.kind === 'send' && (
        <Suspense fallback={null}>
          <LazySendMessageDialog accountId={accountId} recipients={dialog.contacts} onClose={close} />
        </Suspense>
      )}
      {dialog?.kind === 'block' && (
        <BlockContactConfirm accountId={accountId} contact={dialog.contact} name={display.name(dialog.contact)} onDone={close} onCancel={close} />
      )}
      {dialog?.kind === 'remove' && (
        <RemoveContactConfirm accountId={accountId} contact={dialog.contact} name={display.name(dialog.contact)} onDone={close} onCancel={close} />
      )}
      {permissions.canImport && (
        <ImportContactsDialog open={dialog?.kind === 'import'} onClose={close} onImported={() => void invalidate()} />
      )}
      {dialog?.kind === 'addToList' && (
        <AddToListDialog
          accountId={accountId}
          contactIds={dialog.ids}
          onClose={close}
          onAdded={() => {
            onSelectionDone();
            void invalidate();
          }}
        />
      )}
      {dialog?.kind === 'checkNumberTypes' && (
        <CheckNumberTypesDialog accountId={accountId} ids={dialog.ids} onClose={close} onFinished={() => void invalidate()} />
      )}
      {dialog?.kind === 'removeMany' && (
        <RemoveDialog
          title="Remove Contacts"
          message={`Remove ${String(dialog.ids.length)} ${dialog.ids.length === 1 ? 'contact' : 'contacts'}? This cannot be undone.`}
          removal={removeMany}
          onConfirm={() => {
            removeSelected(dialog.ids);
          }}
          onCancel={() => {
            removeMany.reset();
            close();
          }}
        />
      )}
    </>
  );
};
