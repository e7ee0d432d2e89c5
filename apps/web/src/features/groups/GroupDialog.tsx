import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Autocomplete from '@mui/material/Autocomplete';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import {
  GROUP_SAVE_FAILED_MESSAGE,
  saveGroupSchema,
  type AccountUser,
  type Group,
  type SaveGroup,
  type SaveGroupInput,
} from '@parley/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { Controller, useForm, type SubmitHandler } from 'react-hook-form';
import { DialogFooter } from '../../components/DialogFooter';
import { useApiClient } from '../../api/apiContext';
import { errorMessage } from '../../api/client';
import { useSnackbar } from '../../components/snackbarContext';
import { usePhoneDisplay } from '../../session/usePhoneDisplay';
import { usePhoneNumbers } from '../phoneNumbers';
import { useAccountUsers } from '../accounts';
import {
  accountNumbers,
  groupNumberLabel,
  groupNumberOptions,
  holdsReleasedNumbers,
  phoneNumbersToSend,
} from './groupPhoneNumbers';
import { GroupTagsField } from './GroupTagsField';
import { groupSaved, groupsQueryKey, type GroupPage } from './queries';

interface GroupDialogProps {
  accountId: string;
  /** The group to change; absent to create one. */
  group?: Group;
  onClose: () => void;
}

const userLabel = (u: Pick<AccountUser, 'firstName' | 'lastName' | 'email'>): string =>
  `${u.firstName} ${u.lastName}`.trim() || u.email;

/** Group create/update: name required, tags, users and phone numbers of the account. */
export const GroupDialog = ({ accountId, group, onClose }: GroupDialogProps) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const snackbar = useSnackbar();
  const titleId = useId();
  const users = useAccountUsers(accountId);
  const members = (users.data ?? []).filter((u) => u.status === 'active');
  const phoneNumbers = usePhoneNumbers(accountId);
  const display = usePhoneDisplay();
  const numbers = phoneNumbers.isSuccess ? accountNumbers(phoneNumbers.data) : undefined;
  const heldNumbers = group?.phoneNumbers.map((n) => n.id) ?? [];
  const { register, control, handleSubmit, formState } = useForm<SaveGroupInput, unknown, SaveGroup>({
    resolver: zodResolver(saveGroupSchema),
    defaultValues: {
      name: group?.name ?? '',
      tags: group?.tags ?? [],
      users: group?.users.map((u) => u.id) ?? [],
      phoneNumbers: heldNumbers,
    },
  });
  const save = useMutation({
    mutationFn: async ({ name, tags, users: userIds, phoneNumbers: numberIds }: SaveGroup) => {
      const body = { name, tags, users: userIds, phoneNumbers: phoneNumbersToSend(numberIds ?? [], numbers) };
      return group === undefined
        ? (await api.post<{ data: Group }>(`/v1/accounts/${accountId}/groups`, body)).data
        : (await api.put<{ data: Group }>(`/v1/accounts/${accountId}/groups/${group.id}`, body)).data;
    },
    onSuccess: (saved) => {
      queryClient.setQueryData<GroupPage | undefined>(groupsQueryKey(accountId), (page) => groupSaved(page, saved));
      snackbar.show(group === undefined ? 'Group created' : 'Group saved');
      onClose();
    },
    onError: () => {
      snackbar.show(GROUP_SAVE_FAILED_MESSAGE);
    },
  });
  const submit: SubmitHandler<SaveGroup> = (values) => {
    save.mutate(values);
  };
  const e = formState.errors;
  // Users who left the account still show by name until the group is saved without them.
  const knownUsers = new Map([...(group?.users ?? []), ...members].map((u) => [u.id, u]));

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <form noValidate onSubmit={(event) => void handleSubmit(submit)(event)}>
        <DialogTitle id={titleId}>{group === undefined ? 'Create Group' : 'Update Group'}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField label="Name" required autoFocus {...register('name')} error={!!e.name} helperText={e.name?.message} />
            <Controller
              control={control}
              name="tags"
              render={({ field }) => <GroupTagsField value={field.value ?? []} onChange={field.onChange} error={e.tags?.message} invalid={!!e.tags} />}
            />
            <Controller
              control={control}
              name="users"
              render={({ field }) => (
                <Autocomplete
                  multiple
                  options={members.map((u) => u.id)}
                  loading={users.isPending}
                  value={field.value ?? []}
                  onChange={(_event, value) => {
                    field.onChange(value);
                  }}
                  getOptionLabel={(id) => {
                    const user = knownUsers.get(id);
                    return user === undefined ? id : userLabel(user);
                  }}
                  renderInput={(params) => (
                    <TextField
                      {...params}
                      label="Users"
                      error={!!e.users}
                      helperText={e.users?.message ?? 'The users who see this group’s conversations'}
                    />
                  )}
                />
              )}
            />
            <Controller
              control={control}
              name="phoneNumbers"
              render={({ field }) => {
                const selected = field.value ?? [];
                return (
                  <Autocomplete
                    multiple
                    // Until the numbers are known the group's own cannot be named, and a save keeps them.
                    disabled={numbers === undefined}
                    loading={phoneNumbers.isPending}
                    options={numbers === undefined ? [] : groupNumberOptions(phoneNumbers.data ?? [], heldNumbers, selected)}
                    value={numbers === undefined ? [] : selected}
                    onChange={(_event, value) => {
                      field.onChange(value);
                    }}
                    getOptionLabel={(id) => (numbers === undefined ? id : groupNumberLabel(id, numbers, display.phone))}
                    renderInput={(params) => (
                      <TextField
                        {...params}
                        label="Phone Numbers"
                        error={!!e.phoneNumbers || phoneNumbers.isError}
                        helperText={
                          e.phoneNumbers?.message ??
                          (phoneNumbers.isError
                            ? `The phone numbers could not be loaded (${errorMessage(phoneNumbers.error)}); the group keeps its numbers.`
                            : numbers !== undefined && holdsReleasedNumbers(selected, numbers)
                              ? 'Released numbers leave the group when it is saved.'
                              : 'Messages to these numbers go to this group’s conversations')
                        }
                      />
                    )}
                  />
                );
              }}
            />
          </Stack>
          {save.isError && (
            <Alert severity="error" variant="outlined" sx={{ mt: 2 }}>
              <AlertTitle>{GROUP_SAVE_FAILED_MESSAGE}</AlertTitle>
              {errorMessage(save.error)}
            </Alert>
          )}
        </DialogContent>
        <DialogFooter label={group === undefined ? 'Create' : 'Save'} onCancel={onClose} pending={save.isPending} />
      </form>
    </Dialog>
  );
};
