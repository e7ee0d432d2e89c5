import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { INSUFFICIENT_CREDIT_MESSAGE, type Contact, type MessageMedia, type Template } from '@parley/shared';
import { useId, useMemo, useState } from 'react';
import { ApiError, errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { AttachmentPicker } from '../../components/media/AttachmentPicker';
import { MessageEditor } from '../../components/messageEditor/MessageEditor';
import { TemplatePicker } from '../templates';
import { useSnackbar } from '../../components/snackbarContext';
import { useIsPhone } from '../../components/useIsPhone';
import { useAttributeNames } from '../contacts';
import { useAccount } from '../../session/queries';
import { useSession } from '../../session/sessionContext';
import { usePhoneDisplay } from '../../session/usePhoneDisplay';
import { usePhoneNumbers } from '../phoneNumbers';
import { OutsideHoursNotice, SendChoice, useOutsideHours } from './OutsideHoursChoice';
import { RecipientPicker } from './RecipientPicker';
import { SenderNumberSelect } from './SenderNumberSelect';
import { useSendMessage } from './sendMessageQueries';
import { canSend, sendRequestOf, sentNotice } from './sendRequest';

export interface SendMessageDialogProps {
  accountId: string;
  /** Contacts chosen before the dialog opened (the contacts table's selection, one contact's dialog). */
  recipients?: readonly Contact[];
  onClose: () => void;
  /** After a send went out (the dialog closes itself). */
  onSent?: () => void;
}

/** A 402 other than an expired trial (whose own message says to choose a plan) is the balance's. */
const isInsufficientCredit = (error: unknown): boolean =>
  error instanceof ApiError && error.code !== 'trial_expired' && (error.status === 402 || error.message === INSUFFICIENT_CREDIT_MESSAGE);

/**
 * Send Message (to a contact, or to multiple contacts), with the tabs Custom Message and
 * Use Template: choosing an SMS template fills the text and attachments and goes back to the message, to
 * be read (or changed) before it goes. Send waits for a text and a recipient; the editor shows what a
 * message costs before it goes.
 */
export const SendMessageDialog = ({ accountId, recipients: initial = [], onClose, onSent }: SendMessageDialogProps) => {
  const session = useSession();
  const snackbar = useSnackbar();
  const titleId = useId();
  const account = useAccount(accountId);
  const attributes = useAttributeNames(accountId);
  const numbers = usePhoneNumbers(accountId);
  const display = usePhoneDisplay();
  const phone = useIsPhone();
  const send = useSendMessage(accountId);
  const [recipients, setRecipients] = useState<Contact[]>(() => [...initial]);
  const [template, setTemplate] = useState('');
  const [media, setMedia] = useState<MessageMedia[]>([]);
  const [phoneNumberId, setPhoneNumberId] = useState('');
  const [tab, setTab] = useState<'custom' | 'template'>('custom');
  const [fromTemplate, setFromTemplate] = useState<string | null>(null);
  const attributeNames = useMemo(() => attributes.data ?? [], [attributes.data]);
  const active = useMemo(() => (numbers.data ?? []).filter((n) => n.status === 'active'), [numbers.data]);

  const verified = session.profile.emailVerified;
  const draft = { contactIds: recipients.map((c) => c.id), template, phoneNumberId, media };
  const title = initial.length === 1 && initial[0] !== undefined ? `Send Message to ${display.name(initial[0])}` : 'Send Message';

  const applyTemplate = (chosen: Template): void => {
    setTemplate(chosen.template);
    setMedia(chosen.media);
    setFromTemplate(chosen.name);
    setTab('custom');
  };

  // One recipient outside their acceptable hours: the sender chooses between now and the opening.
  const outside = useOutsideHours(accountId, recipients.length === 1 ? (recipients[0]?.id ?? null) : null);

  const submit = (sendNow: boolean): void => {
    send.mutate(sendRequestOf({ ...draft, sendNow }), {
      onSuccess: (result) => {
        snackbar.show(sentNotice(result));
        onSent?.();
        onClose();
      },
    });
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm" fullScreen={phone}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <Tabs
        value={tab}
        onChange={(_event, value: 'custom' | 'template') => {
          setTab(value);
        }}
        sx={{ px: 3, borderBottom: 1, borderColor: 'divider' }}
      >
        <Tab value="custom" label="Custom Message" />
        <Tab value="template" label="Use Template" disabled={send.isPending} />
      </Tabs>
      <DialogContent>
        {tab === 'template' && (
          <Stack sx={{ pt: 1 }}>
            <TemplatePicker accountId={accountId} onPick={applyTemplate} autoFocus />
          </Stack>
        )}
        <Stack spacing={2} sx={{ pt: 1, display: tab === 'custom' ? undefined : 'none' }}>
          {!verified && (
            <Alert severity="warning">
              Your email is unverified. You will not be able to send messages or perform any chargable actions until your account is
              verified.
            </Alert>
          )}
          <RecipientPicker accountId={accountId} value={recipients} onChange={setRecipients} disabled={send.isPending} />
          {active.length > 1 && (
            <SenderNumberSelect numbers={active} value={phoneNumberId} onChange={setPhoneNumberId} disabled={send.isPending} />
          )}
          {numbers.isSuccess && active.length === 0 && (
            <Alert severity="info">This account has no active phone number to send from yet.</Alert>
          )}
          {fromTemplate !== null && (
            <Alert severity="info" variant="outlined" onClose={() => { setFromTemplate(null); }}>
              Filled from the template "{fromTemplate}". Change it here if this message needs to differ.
            </Alert>
          )}
          <MessageEditor
            accountId={accountId}
            value={template}
            onChange={setTemplate}
            attributeNames={attributeNames}
            pricing={account.data?.plan.pricing ?? null}
            recipients={recipients}
            hasMedia={media.length > 0}
            disabled={send.isPending}
            autoFocus={initial.length > 0}
          />
          <AttachmentPicker value={media} onChange={setMedia} disabled={send.isPending} />
          {outside !== null && <OutsideHoursNotice status={outside} />}
          {send.isError &&
            (isInsufficientCredit(send.error) ? (
              <Alert severity="error" variant="outlined">
                <AlertTitle>{INSUFFICIENT_CREDIT_MESSAGE}</AlertTitle>
                The balance does not cover this message. Top up the account, then send it again.
              </Alert>
            ) : (
              <ErrorAlert message={errorMessage(send.error)} />
            ))}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <SendChoice outside={outside} disabled={!canSend(draft, verified)} pending={send.isPending} onSend={submit} />
      </DialogActions>
    </Dialog>
  );
};
