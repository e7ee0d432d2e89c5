import Autocomplete, { createFilterOptions } from '@mui/material/Autocomplete';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { LIST_NAME_MAX, type AddListContactsResult, type ListRecord } from '@parley/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { DialogFooter } from '../../components/DialogFooter';
import { useApiClient } from '../../api/apiContext';
import { useSnackbar } from '../../components/snackbarContext';
import { AddOptions } from './AddOptions';
import { listMembersQueryKey, listQueryKey, rememberSavedList, useLists } from './queries';

/** An existing list, or a name typed for a new one. */
type Choice = ListRecord | { newName: string };

const filter = createFilterOptions<Choice>();
const labelOf = (choice: Choice | string): string =>
  typeof choice === 'string' ? choice : 'newName' in choice ? `Create list “${choice.newName}”` : choice.name;

interface AddToListDialogProps {
  accountId: string;
  /** The contacts to add (for example the rows chosen in the contacts table). */
  contactIds: readonly string[];
  onClose: () => void;
  onAdded?: (list: ListRecord, result: AddListContactsResult) => void;
}

/**
 * Adds chosen contacts to a list, or to a new list named here: the way an account gets its first list, since
 * the side menu shows Lists only once one exists.
 */
export const AddToListDialog = ({ accountId, contactIds, onClose, onAdded }: AddToListDialogProps) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const snackbar = useSnackbar();
  const titleId = useId();
  const lists = useLists(accountId);
  const [choice, setChoice] = useState<Choice | null>(null);
  const [optIn, setOptIn] = useState(false);
  const [missing, setMissing] = useState(false);

  const add = useMutation({
    mutationFn: async (chosen: Choice) => {
      const list =
        'newName' in chosen
          ? (await api.post<{ data: ListRecord }>(`/v1/accounts/${accountId}/lists`, { name: chosen.newName })).data
          : chosen;
      if ('newName' in chosen) rememberSavedList(queryClient, accountId, list);
      const result = (
        await api.post<{ data: AddListContactsResult }>(`/v1/accounts/${accountId}/lists/${list.id}/contacts`, {
          contactIds,
          optIn,
        })
      ).data;
      return { list, result };
    },
    onSuccess: async ({ list, result }) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: listMembersQueryKey(accountId, list.id) }),
        queryClient.invalidateQueries({ queryKey: listQueryKey(accountId, list.id), exact: true }),
        queryClient.invalidateQueries({ queryKey: ['accounts', accountId, 'lists'], exact: true }),
      ]);
      snackbar.show(`Added ${result.added} ${result.added === 1 ? 'contact' : 'contacts'} to ${list.name}`);
      onAdded?.(list, result);
      onClose();
    },
  });
  const submit = () => {
    if (choice === null) {
      setMissing(true);
      return;
    }
    add.mutate(choice);
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>Add to List</DialogTitle>
      <DialogContent>
        <Autocomplete<Choice, false, false, true>
          freeSolo
          options={lists.data?.data ?? []}
          loading={lists.isPending}
          value={choice}
          getOptionLabel={labelOf}
          filterOptions={(options, state) => {
            const filtered = filter(options, state);
            const typed = state.inputValue.trim();
            const exists = options.some((o) => !('newName' in o) && o.name.toLowerCase() === typed.toLowerCase());
            if (typed !== '' && typed.length <= LIST_NAME_MAX && !exists) filtered.push({ newName: typed });
            return filtered;
          }}
          onChange={(_event, value) => {
            setMissing(false);
            setChoice(typeof value === 'string' ? (value.trim() === '' ? null : { newName: value.trim() }) : value);
          }}
          renderInput={(params) => (
            <TextField
              {...params}
              label="List"
              required
              margin="dense"
              error={missing}
              helperText={missing ? 'Required' : 'Choose a list or type the name of a new one'}
            />
          )}
        />
        <AddOptions optIn={optIn} onOptIn={setOptIn} add={add} />
      </DialogContent>
      <DialogFooter label={`Add ${contactIds.length === 1 ? '1 contact' : `${contactIds.length} contacts`}`} onCancel={onClose} disabled={contactIds.length === 0} pending={add.isPending} onAction={submit} />
    </Dialog>
  );
};
