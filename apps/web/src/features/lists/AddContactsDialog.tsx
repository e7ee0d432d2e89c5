import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { AddListContactsResult, Contact, Pagination } from '@parley/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { DialogFooter } from '../../components/DialogFooter';
import { useApiClient } from '../../api/apiContext';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSnackbar } from '../../components/snackbarContext';
import { usePhoneDisplay } from '../../session/usePhoneDisplay';
import { AddOptions } from './AddOptions';
import { listMembersQueryKey, listQueryKey, listsQueryKey } from './queries';

/** Contact fetches are debounced 500 ms. */
const SEARCH_DEBOUNCE_MS = 500;
const SEARCH_LIMIT = 10;

const useDebounced = (value: string, ms: number): string => {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => {
      setDebounced(value);
    }, ms);
    return () => {
      clearTimeout(timer);
    };
  }, [value, ms]);
  return debounced;
};

interface AddContactsDialogProps {
  accountId: string;
  listId: string;
  listName: string;
  onClose: () => void;
}

/** The contacts search dialog: find contacts by name, number or e-mail and put the chosen ones on the list. */
export const AddContactsDialog = ({ accountId, listId, listName, onClose }: AddContactsDialogProps) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const snackbar = useSnackbar();
  const titleId = useId();
  const [text, setText] = useState('');
  const q = useDebounced(text.trim(), SEARCH_DEBOUNCE_MS);
  const [chosen, setChosen] = useState<Map<string, Contact>>(new Map());
  const [optIn, setOptIn] = useState(false);

  const search = useQuery({
    queryKey: ['accounts', accountId, 'contacts', 'search', q],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) =>
      api.get<{ data: Contact[]; pagination: Pagination }>(`/v1/accounts/${accountId}/contacts`, {
        query: { q, limit: SEARCH_LIMIT, orderBy: 'lastName-asc' },
        signal,
      }),
  });

  const add = useMutation({
    mutationFn: async () =>
      (
        await api.post<{ data: AddListContactsResult }>(`/v1/accounts/${accountId}/lists/${listId}/contacts`, {
          contactIds: [...chosen.keys()],
          optIn,
        })
      ).data,
    onSuccess: async ({ added, alreadyMembers }) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: listMembersQueryKey(accountId, listId) }),
        queryClient.invalidateQueries({ queryKey: listQueryKey(accountId, listId), exact: true }),
        queryClient.invalidateQueries({ queryKey: listsQueryKey(accountId), exact: true }),
      ]);
      const already = alreadyMembers > 0 ? ` (${alreadyMembers} already on the list)` : '';
      snackbar.show(`Added ${added} ${added === 1 ? 'contact' : 'contacts'} to ${listName}${already}`);
      onClose();
    },
  });

  const toggle = (contact: Contact) => {
    setChosen((current) => {
      const next = new Map(current);
      if (next.has(contact.id)) next.delete(contact.id);
      else next.set(contact.id, contact);
      return next;
    });
  };
  const found = search.data?.data ?? [];
  const display = usePhoneDisplay();
  const more = (search.data?.pagination.totalCount ?? 0) - found.length;

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>Add Contacts to {listName}</DialogTitle>
      <DialogContent>
        <TextField
          label="Search contacts"
          placeholder="Name, mobile or email"
          fullWidth
          autoFocus
          margin="dense"
          value={text}
          onChange={(event) => {
            setText(event.target.value);
          }}
        />
        {search.isFetching && <LinearProgress aria-label="Searching contacts" />}
        {search.isError && <ErrorAlert message={errorMessage(search.error)} onRetry={() => void search.refetch()} />}
        {search.isSuccess && found.length === 0 && (
          <Typography color="text.secondary" sx={{ py: 2 }}>
            No Contacts Exist
          </Typography>
        )}
        <List dense aria-label="Contacts found">
          {found.map((contact) => {
            const labelId = `${titleId}-${contact.id}`;
            return (
              <ListItemButton key={contact.id} onClick={() => { toggle(contact); }}>
                <ListItemIcon sx={{ minWidth: 36 }}>
                  <Checkbox edge="start" checked={chosen.has(contact.id)} tabIndex={-1} disableRipple slotProps={{ input: { 'aria-labelledby': labelId } }} />
                </ListItemIcon>
                <ListItemText id={labelId} primary={display.name(contact)} secondary={[display.phone(contact.mobile.number), contact.email].filter(Boolean).join(' · ')} />
              </ListItemButton>
            );
          })}
        </List>
        {more > 0 && (
          <Typography variant="body2" color="text.secondary">
            {more} more: refine the search to find them.
          </Typography>
        )}
        <AddOptions optIn={optIn} onOptIn={setOptIn} add={add} />
      </DialogContent>
      <DialogFooter
        start={
          <Typography variant="body2" color="text.secondary" sx={{ mr: 'auto', pl: 2 }}>
            {chosen.size} selected
          </Typography>
        }
        label="Add"
        onCancel={onClose}
        disabled={chosen.size === 0}
        pending={add.isPending}
        onAction={() => {
          add.mutate();
        }}
      />
    </Dialog>
  );
};
