import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { LIST_SAVE_FAILED_MESSAGE, saveListSchema, type ListRecord, type SaveList, type SaveListInput } from '@parley/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { useForm, type SubmitHandler } from 'react-hook-form';
import { DialogFooter } from '../../components/DialogFooter';
import { useApiClient } from '../../api/apiContext';
import { errorMessage } from '../../api/client';
import { useSnackbar } from '../../components/snackbarContext';
import { rememberSavedList } from './queries';

interface ListDialogProps {
  accountId: string;
  /** The list to rename; absent to create one. */
  list?: ListRecord;
  onClose: () => void;
  /** Called with the saved list (a new list's page is usually opened next). */
  onSaved?: (list: ListRecord) => void;
}

/** Create or rename a list: the name is required and unique in the account. */
export const ListDialog = ({ accountId, list, onClose, onSaved }: ListDialogProps) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const snackbar = useSnackbar();
  const titleId = useId();
  const editing = list !== undefined;
  const { register, handleSubmit, formState } = useForm<SaveListInput, unknown, SaveList>({
    resolver: zodResolver(saveListSchema),
    defaultValues: { name: list?.name ?? '' },
  });
  const save = useMutation({
    mutationFn: async (body: SaveList) =>
      list === undefined
        ? (await api.post<{ data: ListRecord }>(`/v1/accounts/${accountId}/lists`, body)).data
        : (await api.put<{ data: ListRecord }>(`/v1/accounts/${accountId}/lists/${list.id}`, body)).data,
    onSuccess: (saved) => {
      rememberSavedList(queryClient, accountId, saved);
      snackbar.show(editing ? 'List renamed' : 'List created');
      onSaved?.(saved);
      onClose();
    },
  });
  const submit: SubmitHandler<SaveList> = (values) => {
    save.mutate(values);
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <form noValidate onSubmit={(event) => void handleSubmit(submit)(event)}>
        <DialogTitle id={titleId}>{editing ? 'Rename List' : 'New List'}</DialogTitle>
        <DialogContent>
          <TextField
            label="Name"
            required
            fullWidth
            autoFocus
            margin="dense"
            {...register('name')}
            error={!!formState.errors.name}
            helperText={formState.errors.name?.message}
          />
          {save.isError && (
            <Alert severity="error" variant="outlined" sx={{ mt: 2 }}>
              <AlertTitle>{LIST_SAVE_FAILED_MESSAGE}</AlertTitle>
              {errorMessage(save.error)}
            </Alert>
          )}
        </DialogContent>
        <DialogFooter label={editing ? 'Save' : 'Create'} onCancel={onClose} pending={save.isPending} />
      </form>
    </Dialog>
  );
};
