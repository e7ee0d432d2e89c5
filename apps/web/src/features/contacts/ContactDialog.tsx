import { zodResolver } from '@hookform/resolvers/zod';
import SendOutlined from '@mui/icons-material/SendOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import type { Contact } from '@parley/shared';
import { useEffect, useRef, useState } from 'react';
import { useForm, type SubmitHandler } from 'react-hook-form';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useIsPhone } from '../../components/useIsPhone';
import { useSnackbar } from '../../components/snackbarContext';
import { AttributesTab } from './AttributesTab';
import { contactBodyOf, contactFormSchema, formValuesOf, type ContactFormOutput, type ContactFormValues } from './contactForm';
import { usePhoneDisplay } from '../../session/usePhoneDisplay';
import { BlockContactConfirm, RemoveContactConfirm } from './ContactConfirmations';
import { CoreTab } from './CoreTab';
import { useSaveContact } from './contactsQueries';
import { CONTACT_SAVE_DELAY_MS } from './timing';

export interface ContactDialogProps {
  accountId: string;
  /** The contact to show or edit; null to add one. */
  contact: Contact | null;
  defaultCountry: string;
  attributeNames: readonly string[];
  canWrite: boolean;
  canBlock: boolean;
  onClose: () => void;
  /** Opens Send Message for this contact; the button shows only with it (roles that may send). */
  onSendMessage?: (contact: Contact) => void;
}

type Confirming = 'block' | 'remove' | null;

/** The Contact dialog: tabs Core and Attributes; Block and Remove ask first. */
export const ContactDialog = ({
  accountId,
  contact,
  defaultCountry,
  attributeNames,
  canWrite,
  canBlock,
  onClose,
  onSendMessage,
}: ContactDialogProps) => {
  const snackbar = useSnackbar();
  const [tab, setTab] = useState<'core' | 'attributes'>('core');
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [waiting, setWaiting] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const save = useSaveContact(accountId, contact?.id ?? null);
  const display = usePhoneDisplay();
  const phone = useIsPhone();
  const readOnly = !canWrite;

  const form = useForm<ContactFormValues, unknown, ContactFormOutput>({
    resolver: zodResolver(contactFormSchema),
    defaultValues: formValuesOf(contact, defaultCountry, attributeNames),
  });
  const { handleSubmit } = form;

  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
    },
    [],
  );

  const submit: SubmitHandler<ContactFormOutput> = (values) => {
    // The dialog saves 500 ms after Save.
    setWaiting(true);
    timer.current = setTimeout(() => {
      setWaiting(false);
      save.mutate(contactBodyOf(values), {
        onSuccess: () => {
          snackbar.show(contact === null ? 'Contact added' : 'Contact saved');
          onClose();
        },
      });
    }, CONTACT_SAVE_DELAY_MS);
  };
  const title = contact === null ? 'Add Contact' : readOnly ? 'Contact' : 'Edit Contact';
  const name = contact === null ? '' : display.name(contact);

  return (
    <Dialog open onClose={onClose} aria-labelledby="contact-dialog-title" fullWidth maxWidth="sm" fullScreen={phone}>
      <form
        noValidate
        onSubmit={(event) =>
          void handleSubmit(submit, (errors) => {
            // Show the tab holding the first problem.
            if (errors.attributes !== undefined && Object.keys(errors).length === 1) setTab('attributes');
            else setTab('core');
          })(event)
        }
      >
        <DialogTitle id="contact-dialog-title">{title}</DialogTitle>
        <Tabs
          value={tab}
          onChange={(_event, value: 'core' | 'attributes') => {
            setTab(value);
          }}
          sx={{ px: 3, borderBottom: 1, borderColor: 'divider' }}
        >
          <Tab value="core" label="Core" />
          <Tab value="attributes" label="Attributes" />
        </Tabs>
        <DialogContent sx={{ minHeight: 360 }}>
          {contact?.blocked !== undefined && (
            <Alert severity="warning" sx={{ mb: 2 }}>
              Blocked on {new Date(contact.blocked).toLocaleString()}. The contact must send START to receive messages again.
            </Alert>
          )}
          <Box hidden={tab !== 'core'}>
            <CoreTab form={form} readOnly={readOnly} accountId={accountId} contact={contact} defaultCountry={defaultCountry} />
          </Box>
          <Box hidden={tab !== 'attributes'}>
            <AttributesTab form={form} readOnly={readOnly} />
          </Box>
          {save.isError && <ErrorAlert message={errorMessage(save.error)} />}
        </DialogContent>
        <DialogActions>
          {contact !== null && canWrite && (
            <Button
              color="error"
              onClick={() => {
                setConfirming('remove');
              }}
            >
              Remove
            </Button>
          )}
          {contact !== null && canBlock && contact.blocked === undefined && (
            <Button
              color="warning"
              onClick={() => {
                setConfirming('block');
              }}
            >
              Block
            </Button>
          )}
          <Box sx={{ flex: 1 }} />
          {contact !== null && onSendMessage !== undefined && (
            <Button
              startIcon={<SendOutlined />}
              onClick={() => {
                onSendMessage(contact);
              }}
            >
              Send Message
            </Button>
          )}
          <Button onClick={onClose}>{readOnly ? 'Close' : 'Cancel'}</Button>
          {!readOnly && (
            <Button type="submit" variant="contained" loading={waiting || save.isPending}>
              Save
            </Button>
          )}
        </DialogActions>
      </form>
      {confirming === 'block' && contact !== null && (
        <BlockContactConfirm accountId={accountId} contact={contact} name={name} onDone={onClose} onCancel={() => { setConfirming(null); }} />
      )}
      {confirming === 'remove' && contact !== null && (
        <RemoveContactConfirm accountId={accountId} contact={contact} name={name} onDone={onClose} onCancel={() => { setConfirming(null); }} />
      )}
    </Dialog>
  );
};
