import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { Contact, Conversation } from '@parley/shared';
import { useId, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useIsPhone } from '../../components/useIsPhone';
import { lastMessageSummary, messageTime } from './inbox/format';
import { useFetchContactConversations, useStartConversation } from './inbox/queries';
import { CONTACT_SEARCH_DEBOUNCE_MS, useDebouncedValue } from '../contacts';
import { ContactOption, unreachableReason, SenderNumberSelect, useRecipientSearch } from '../messaging';
import { usePhoneDisplay } from '../../session/usePhoneDisplay';
import { usePhoneNumbers } from '../phoneNumbers';
import { composePath, conversationPath } from './paths';

type Step =
  | { kind: 'searching' }
  | { kind: 'checking'; contact: Contact }
  | { kind: 'choosing'; contact: Contact; conversations: Conversation[] }
  | { kind: 'unreachable'; contact: Contact; reason: string }
  | { kind: 'failed'; contact: Contact; message: string };

/**
 * Start Conversation ('select conversation' and 'contacts search' dialogs): pick a contact; one with open
 * conversations lists them to open one, one without goes straight to a new message: the
 * conversation is started and opens with the send box focused. With several active numbers, 'Choose Outbound
 * Phone Number' picks the one it starts from (only that number's conversations are offered then).
 */
export const StartConversationDialog = ({ accountId, onClose }: { accountId: string; onClose: () => void }) => {
  const titleId = useId();
  const navigate = useNavigate();
  const [input, setInput] = useState('');
  const [open, setOpen] = useState(false);
  const [step, setStep] = useState<Step>({ kind: 'searching' });
  const q = useDebouncedValue(input.trim(), CONTACT_SEARCH_DEBOUNCE_MS);
  const search = useRecipientSearch(accountId, q, open);
  const fetchConversations = useFetchContactConversations(accountId);
  const start = useStartConversation(accountId);
  const numbers = usePhoneNumbers(accountId);
  const display = usePhoneDisplay();
  const phone = useIsPhone();
  const active = useMemo(() => (numbers.data ?? []).filter((n) => n.status === 'active'), [numbers.data]);
  const [phoneNumberId, setPhoneNumberId] = useState('');

  const pick = (contact: Contact): void => {
    setStep({ kind: 'checking', contact });
    fetchConversations(contact.id)
      .then((page) => {
        const existing = phoneNumberId === '' ? page.data : page.data.filter((c) => c.phoneNumber?.id === phoneNumberId);
        if (existing.length > 0) {
          setStep({ kind: 'choosing', contact, conversations: existing });
          return;
        }
        const reason = unreachableReason(contact);
        if (reason !== null) {
          setStep({ kind: 'unreachable', contact, reason });
          return;
        }
        start.mutate({ contactId: contact.id, phoneNumberId: phoneNumberId === '' ? null : phoneNumberId }, {
          onSuccess: (conversation) => void navigate(composePath(conversation.id)),
          onError: (error) => {
            setStep({ kind: 'failed', contact, message: errorMessage(error) });
          },
        });
      })
      .catch((error: unknown) => {
        setStep({ kind: 'failed', contact, message: errorMessage(error) });
      });
  };

  const busy = step.kind === 'checking' || start.isPending;
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm" fullScreen={phone}>
      <DialogTitle id={titleId}>Start Conversation</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {active.length > 1 && (
            <SenderNumberSelect
              numbers={active}
              value={phoneNumberId}
              onChange={(id) => {
                setPhoneNumberId(id);
                setStep({ kind: 'searching' });
              }}
              disabled={busy}
            />
          )}
          <Autocomplete<Contact>
            open={open}
            onOpen={() => {
              setOpen(true);
            }}
            onClose={() => {
              setOpen(false);
            }}
            disabled={busy}
            options={search.data ?? []}
            loading={search.isFetching}
            value={step.kind === 'searching' ? null : step.contact}
            inputValue={input}
            onInputChange={(_event, text) => {
              setInput(text);
            }}
            onChange={(_event, contact) => {
              if (contact === null) setStep({ kind: 'searching' });
              else pick(contact);
            }}
            // The server searched already: every option it answered is a match.
            filterOptions={(options) => options}
            isOptionEqualToValue={(option, chosen) => option.id === chosen.id}
            getOptionLabel={(contact) => display.name(contact)}
            noOptionsText={q === '' ? 'Type a name, number or email' : 'No Contacts Exist'}
            renderOption={(props, contact) => {
              const { key, ...rest } = props;
              return <ContactOption key={key} itemProps={rest} contact={contact} />;
            }}
            renderInput={(params) => <TextField {...params} label="Contact" placeholder="Search contacts" autoFocus />}
          />
          {busy && (
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} role="status">
              <CircularProgress size={18} />
              <Typography variant="body2">{start.isPending ? 'Starting the conversation…' : 'Looking for conversations…'}</Typography>
            </Stack>
          )}
          {step.kind === 'choosing' && (
            <>
              <Typography variant="body2" color="text.secondary">
                {display.name(step.contact)} already has {step.conversations.length === 1 ? 'a conversation' : 'conversations'}. Open one:
              </Typography>
              <List aria-label="Conversations of the contact" disablePadding>
                {step.conversations.map((c) => (
                  <ListItemButton key={c.id} onClick={() => void navigate(conversationPath(c.id))} sx={{ borderRadius: 1 }}>
                    <ListItemText
                      primary={lastMessageSummary(c.lastMessage)}
                      secondary={[
                        c.phoneNumber === undefined ? null : `via ${display.phone(c.phoneNumber.number)}`,
                        c.group?.name ?? null,
                        messageTime(c.lastMessage?.created.at ?? c.updated.at),
                      ]
                        .filter((part) => part !== null)
                        .join(' · ')}
                      slotProps={{ primary: { noWrap: true } }}
                    />
                  </ListItemButton>
                ))}
              </List>
            </>
          )}
          {step.kind === 'unreachable' && (
            <Alert severity="warning">
              {display.name(step.contact)} cannot be texted ({step.reason}), so no conversation can start.
            </Alert>
          )}
          {step.kind === 'failed' && <ErrorAlert message={step.message} />}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
      </DialogActions>
    </Dialog>
  );
};
